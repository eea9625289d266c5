// A small command-line parser for the glrmask subcommands: `--name value`, `--name=value`,
// boolean `--flag`, and positional arguments. Unknown options are errors, never ignored.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace glrmask::app {

class Args {
 public:
  // `value_options` take a value; `flag_options` do not. Names are given without the dashes.
  Args(std::vector<std::string> argv, std::set<std::string> value_options,
       std::set<std::string> flag_options);

  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::string value_or(const std::string& name, std::string fallback) const;
  // Throws glrmask::Error naming the option when it is absent.
  std::string required(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Throws unless the number of positional arguments is within [min, max].
  void expect_positional(std::size_t min, std::size_t max, std::string_view usage) const;

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
};

}  // namespace glrmask::app
