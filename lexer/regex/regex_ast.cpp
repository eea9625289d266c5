#include "lexer/regex/regex_ast.h"

#include <algorithm>

namespace glrmask::lexer {

uint32_t Regex::min_length() const {
  // Children are always stored before their parent, so one pass in index order suffices.
  constexpr uint64_t kCap = std::numeric_limits<uint32_t>::max();
  std::vector<uint64_t> length(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const RegexNode& node = nodes[i];
    switch (node.kind) {
      case RegexKind::kEmpty:
        length[i] = 0;
        break;
      case RegexKind::kCodePoints:
      case RegexKind::kVetoedEnd:
        length[i] = 1;
        break;
      case RegexKind::kConcat: {
        uint64_t sum = 0;
        for (uint32_t child : node.children) sum = std::min(kCap, sum + length[child]);
        length[i] = sum;
        break;
      }
      case RegexKind::kAlternate: {
        uint64_t shortest = kCap;
        for (uint32_t child : node.children) shortest = std::min(shortest, length[child]);
        length[i] = node.children.empty() ? 0 : shortest;
        break;
      }
      case RegexKind::kRepeat:
        length[i] = std::min(kCap, length[node.children[0]] * node.min);
        break;
    }
  }
  return nodes.empty() ? 0 : static_cast<uint32_t>(length[root]);
}

bool Regex::has_lazy_repeat() const {
  return std::any_of(nodes.begin(), nodes.end(), [](const RegexNode& node) {
    return node.kind == RegexKind::kRepeat && node.lazy;
  });
}

}  // namespace glrmask::lexer
