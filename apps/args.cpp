#include "apps/args.h"

#include <fmt/format.h>

#include <charconv>

#include "lib/core/error.h"

namespace glrmask::app {

Args::Args(std::vector<std::string> argv, const std::set<std::string>& value_options,
           const std::set<std::string>& flag_options) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
      positional_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (flag_options.count(name)) {
      if (inline_value)
        throw Error(fmt::format("option --{} takes no value", name), ErrorCode::kInvalidArgument);
      flags_.insert(name);
    } else if (value_options.count(name)) {
      if (inline_value) {
        values_[name].push_back(*inline_value);
      } else {
        if (i + 1 >= argv.size())
          throw Error(fmt::format("option --{} needs a value", name), ErrorCode::kInvalidArgument);
        values_[name].push_back(argv[++i]);
      }
    } else {
      throw Error(fmt::format("unknown option --{}", name), ErrorCode::kInvalidArgument);
    }
  }
}

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  if (it->second.size() > 1)
    throw Error(fmt::format("option --{} is given {} times; give it once", name, it->second.size()),
                ErrorCode::kInvalidArgument);
  return it->second.front();
}

std::vector<std::string> Args::values(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::optional<std::uint64_t> Args::count(const std::string& name, std::uint64_t minimum) const {
  const std::optional<std::string> text = value(name);
  if (!text) return std::nullopt;
  return parse_count(name, *text, minimum);
}

std::optional<std::string> take_option_value(const std::vector<std::string>& args, std::size_t& i,
                                             std::string_view name) {
  const std::string& arg = args[i];
  const std::string flag = fmt::format("--{}", name);
  if (arg == flag) {
    if (i + 1 >= args.size())
      throw Error(fmt::format("option {} needs a value", flag), ErrorCode::kInvalidArgument);
    return args[++i];
  }
  if (arg.size() > flag.size() && arg.compare(0, flag.size(), flag) == 0 && arg[flag.size()] == '=')
    return arg.substr(flag.size() + 1);
  return std::nullopt;
}

void take_options(std::vector<std::string>& args, std::span<const std::string_view> names,
                  const std::function<void(std::size_t, const std::string&)>& use) {
  std::vector<std::string> rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::optional<std::string> value;
    std::size_t matched = 0;
    while (matched < names.size() && !(value = take_option_value(args, i, names[matched])))
      ++matched;
    if (value) {
      use(matched, *value);
    } else {
      rest.push_back(args[i]);
    }
  }
  args = std::move(rest);
}

std::uint64_t parse_count(std::string_view option, const std::string& text, std::uint64_t minimum) {
  std::uint64_t parsed = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, parsed);
  if (text.empty() || error != std::errc() || stop != end || parsed < minimum)
    throw Error(
        fmt::format("option --{}: expected an integer >= {}, got '{}'", option, minimum, text),
        ErrorCode::kInvalidArgument);
  return parsed;
}

std::string Args::value_or(const std::string& name, std::string fallback) const {
  auto v = value(name);
  return v ? *v : std::move(fallback);
}

std::string Args::required(const std::string& name) const {
  auto v = value(name);
  if (!v)
    throw Error(fmt::format("missing required option --{}", name), ErrorCode::kInvalidArgument);
  return *v;
}

void Args::expect_positional(std::size_t min, std::size_t max, std::string_view usage) const {
  if (positional_.size() < min || positional_.size() > max)
    throw Error(fmt::format("expected {} argument{}; usage: {}",
                            min == max ? fmt::format("{}", min) : fmt::format("{} to {}", min, max),
                            max == 1 ? "" : "s", usage),
                ErrorCode::kInvalidArgument);
}

}  // namespace glrmask::app
