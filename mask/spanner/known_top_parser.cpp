#include "mask/spanner/known_top_parser.h"

#include <algorithm>

namespace glrmask::mask {

namespace {

// Bounds on one step's search. Hidden left recursion makes ε-reductions push without end (the
// GSS folds that into a cycle; a virtual stack cannot), so a step that meets more stacks or
// deeper ones than any real grammar needs stops and reports the rest as unknown.
constexpr std::size_t kMaxStacksPerStep = 512;
constexpr std::uint32_t kMaxDepth = 256;

}  // namespace

KnownTopParser::KnownTopParser(const glr::LrTable& table, glr::StateId bottom)
    : table_(table), root_(stacks_.push(bottom, VirtualStackPool::kEmpty)) {}

const KnownTopStep& KnownTopParser::step(VirtualStackId stack, glr::SymbolId lookahead) {
  const std::uint64_t key = std::uint64_t{stack} << 32 | lookahead;
  if (const auto it = steps_.find(key); it != steps_.end()) return it->second;
  KnownTopStep result = compute(stack, lookahead);
  return steps_.emplace(key, std::move(result)).first->second;
}

KnownTopStep KnownTopParser::compute(VirtualStackId stack, glr::SymbolId lookahead) {
  KnownTopStep result;
  pending_.assign(1, stack);
  seen_.assign(1, stack);
  while (!pending_.empty()) {
    const VirtualStackId current = pending_.back();
    pending_.pop_back();
    for (const glr::Action action : table_.actions(stacks_.top(current), lookahead)) {
      if (action.is_accept()) {
        result.accepts = true;
      } else if (action.is_shift()) {
        result.shifted.push_back(stacks_.push(action.target(), current));
      } else {
        const std::uint32_t length = table_.rule_length(action.rule());
        // The bottom cell is the head's state: popping it exposes the unknown part.
        if (length >= stacks_.depth(current)) {
          result.unknown = true;
          continue;
        }
        const VirtualStackId below = stacks_.pop(current, length);
        const glr::StateId target =
            table_.goto_state(stacks_.top(below), table_.rule_lhs(action.rule()));
        // No goto: the exposed state cannot be below this rule's right-hand side in any real
        // stack (the GSS never builds it), so the path does not exist.
        if (target == glr::kNoState) continue;
        if (stacks_.depth(below) + 1 > kMaxDepth || seen_.size() >= kMaxStacksPerStep) {
          result.unknown = true;
          continue;
        }
        const VirtualStackId reduced = stacks_.push(target, below);
        if (std::find(seen_.begin(), seen_.end(), reduced) != seen_.end()) continue;
        seen_.push_back(reduced);
        pending_.push_back(reduced);
      }
    }
  }
  std::sort(result.shifted.begin(), result.shifted.end());
  result.shifted.erase(std::unique(result.shifted.begin(), result.shifted.end()),
                       result.shifted.end());
  return result;
}

}  // namespace glrmask::mask
