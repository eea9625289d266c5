#include "lib/lark/lark_terminal_table.h"

#include <fmt/format.h>

#include "lib/lark/lark_terminal_names.h"

namespace glrmask::lark {

void TerminalTable::add_named(std::string name, Pattern pattern, int priority,
                              SourceLocation origin) {
  names_.insert(name);
  by_identity_[pattern.identity()] = entries_.size();
  entries_.push_back({std::move(name), std::move(pattern), priority, false, std::move(origin)});
}

std::string TerminalTable::intern_anonymous(const Pattern& pattern, const SourceLocation& origin) {
  const std::string identity = pattern.identity();
  if (auto it = by_identity_.find(identity); it != by_identity_.end()) {
    return entries_[it->second].name;
  }
  std::string name = pattern.is_literal ? preferred_literal_name(pattern.literal) : "";
  if (name.empty() || names_.contains(name)) {
    do {
      name = fmt::format("__ANON_{}", next_anonymous_++);
    } while (names_.contains(name));
  }
  names_.insert(name);
  by_identity_[identity] = entries_.size();
  entries_.push_back({name, pattern, 0, true, origin});
  return name;
}

}  // namespace glrmask::lark
