// A small command-line parser for the glrmask subcommands: `--name value`, `--name=value`,
// boolean `--flag`, and positional arguments. Unknown options are errors, never ignored.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace glrmask::app {

class Args {
 public:
  // `value_options` take a value; `flag_options` do not. Names are given without the dashes.
  Args(std::vector<std::string> argv, const std::set<std::string>& value_options,
       const std::set<std::string>& flag_options);

  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  // The option's value; throws glrmask::Error naming the option when it was given twice (use
  // values() for options that may repeat).
  std::optional<std::string> value(const std::string& name) const;
  // Every value the option was given, in order.
  std::vector<std::string> values(const std::string& name) const;
  // The option's value as an integer >= `minimum`, parsed strictly (all of it a number); throws
  // glrmask::Error naming the option otherwise. nullopt when absent.
  std::optional<std::uint64_t> count(const std::string& name, std::uint64_t minimum) const;
  std::string value_or(const std::string& name, std::string fallback) const;
  // Throws glrmask::Error naming the option when it is absent.
  std::string required(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Throws unless the number of positional arguments is within [min, max].
  void expect_positional(std::size_t min, std::size_t max, std::string_view usage) const;

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
};

// For the options taken out of an argument list before Args parses it (grammar_options.h,
// limit_options.h): the value of `--name value` or `--name=value` at args[i], advancing `i` past
// a separate value; nullopt when args[i] is another argument. Throws glrmask::Error when
// `--name` is the last argument.
std::optional<std::string> take_option_value(const std::vector<std::string>& args, std::size_t& i,
                                             std::string_view name);

// One pass of take_option_value over `args`: each argument that is one of the options `names`
// (the first that matches) is taken out and given to `use` with the index of its name; the other
// arguments stay, in order.
void take_options(std::vector<std::string>& args, std::span<const std::string_view> names,
                  const std::function<void(std::size_t, const std::string&)>& use);

// `text` as an integer >= `minimum`, all of it digits; throws glrmask::Error naming `--option`.
std::uint64_t parse_count(std::string_view option, const std::string& text, std::uint64_t minimum);

}  // namespace glrmask::app
