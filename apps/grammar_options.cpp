#include "apps/grammar_options.h"

#include <fmt/format.h>

#include <optional>
#include <string_view>

#include "lib/error.h"

namespace glrmask::app {
namespace {

struct SharedOption {
  std::string_view name;
  GrammarOption bit;
};

constexpr SharedOption kSharedOptions[] = {
    {"start", kStartOption},
    {"policy", kPolicyOption},
    {"skippable", kSkippableOption},
};

glr::ConflictPolicy parse_policy(const std::string& text) {
  if (text == "glr") return glr::ConflictPolicy::kKeepAll;
  if (text == "lark") return glr::ConflictPolicy::kLark;
  throw Error(fmt::format("option --policy: unknown policy '{}' (expected glr or lark)", text));
}

void add_skippable(const std::string& list, std::vector<std::string>& out) {
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', begin), list.size());
    const std::string name = list.substr(begin, comma - begin);
    if (name.empty())
      throw Error(fmt::format("option --skippable: empty terminal name in '{}'", list));
    out.push_back(name);
    if (comma == list.size()) return;
    begin = comma + 1;
  }
}

}  // namespace

glr::ParseOptions take_grammar_options(CommandArgs& args, std::uint8_t accepted) {
  glr::ParseOptions options;
  bool start_given = false;
  bool policy_given = false;
  CommandArgs rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const SharedOption* matched = nullptr;
    std::optional<std::string> value;
    for (const SharedOption& option : kSharedOptions) {
      if (!(accepted & option.bit)) continue;
      const std::string flag = fmt::format("--{}", option.name);
      if (arg == flag) {
        if (i + 1 >= args.size()) throw Error(fmt::format("option {} needs a value", flag));
        matched = &option;
        value = args[++i];
      } else if (arg.size() > flag.size() && arg.compare(0, flag.size(), flag) == 0 &&
                 arg[flag.size()] == '=') {
        matched = &option;
        value = arg.substr(flag.size() + 1);
      }
      if (matched) break;
    }
    if (!matched) {
      rest.push_back(arg);
      continue;
    }
    switch (matched->bit) {
      case kStartOption:
        if (start_given) throw Error("option --start given twice");
        if (value->empty()) throw Error("option --start: empty rule name");
        start_given = true;
        options.start = *value;
        break;
      case kPolicyOption:
        if (policy_given) throw Error("option --policy given twice");
        policy_given = true;
        options.policy = parse_policy(*value);
        break;
      default:
        add_skippable(*value, options.skippable);
        break;
    }
  }
  args = std::move(rest);
  return options;
}

std::string policy_name(glr::ConflictPolicy policy) {
  return policy == glr::ConflictPolicy::kLark ? "lark" : "glr";
}

}  // namespace glrmask::app
