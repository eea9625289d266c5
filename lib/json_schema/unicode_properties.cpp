#include "lib/json_schema/unicode_properties.h"

#include <array>
#include <initializer_list>
#include <string>
#include <utility>

namespace glrmask::json_schema {
namespace {

struct Category {
  std::string_view short_name;
  std::string_view long_name;
  std::initializer_list<std::pair<char32_t, char32_t>> ranges;
};

#define GLRMASK_UNICODE_CATEGORY(short_name, long_name, ...) \
  Category{short_name, long_name, {__VA_ARGS__}},
const Category kCategories[] = {
#include "lib/json_schema/unicode_categories.inc"
};
#undef GLRMASK_UNICODE_CATEGORY

// The one-letter groups: every category whose short name starts with the letter.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kGroups = {{
    {"L", "Letter"},
    {"M", "Mark"},
    {"N", "Number"},
    {"P", "Punctuation"},
    {"S", "Symbol"},
    {"Z", "Separator"},
    {"C", "Other"},
}};

CodePointSet categories_where(bool (*keep)(std::string_view short_name)) {
  CodePointSet out;
  for (const Category& category : kCategories)
    if (keep(category.short_name))
      for (auto [first, last] : category.ranges) out.add(first, last);
  return out;
}

}  // namespace

std::optional<CodePointSet> unicode_property(std::string_view name) {
  for (const std::string_view prefix : {"General_Category=", "gc="})
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
  if (name == "digit") name = "Nd";
  if (name == "Any") {
    CodePointSet all;
    all.add(0, 0x10FFFF);
    return all;
  }
  if (name == "ASCII") {
    CodePointSet ascii;
    ascii.add(0, 0x7F);
    return ascii;
  }
  if (name == "Assigned") return categories_where([](std::string_view c) { return c != "Cn"; });
  if (name == "LC" || name == "Cased_Letter")
    return categories_where([](std::string_view c) { return c == "Lu" || c == "Ll" || c == "Lt"; });
  for (const Category& category : kCategories) {
    if (name != category.short_name && name != category.long_name) continue;
    CodePointSet out;
    for (auto [first, last] : category.ranges) out.add(first, last);
    return out;
  }
  for (const auto& [letter, long_name] : kGroups) {
    if (name != letter && name != long_name) continue;
    CodePointSet out;
    for (const Category& category : kCategories)
      if (category.short_name[0] == letter[0])
        for (auto [first, last] : category.ranges) out.add(first, last);
    return out;
  }
  return std::nullopt;
}

}  // namespace glrmask::json_schema
