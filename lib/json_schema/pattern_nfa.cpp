#include "lib/json_schema/pattern_nfa.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "lib/core/error.h"
#include "lib/core/unicode_utf8.h"
#include "lib/json_schema/document.h"

namespace glrmask::json_schema {
namespace {

// CodePointSet::contains scans its ranges; \p{L} has hundreds, and the simulation asks once per
// character and live state, so search them by bisection.
bool nfa_set_contains(const CodePointSet& set, char32_t c) {
  const auto& ranges = set.ranges();
  const auto after = std::upper_bound(
      ranges.begin(), ranges.end(), c,
      [](char32_t x, const std::pair<char32_t, char32_t>& range) { return x < range.first; });
  return after != ranges.begin() && c <= std::prev(after)->second;
}

}  // namespace

PatternNfa::PatternNfa(const PatternAst& ast, const std::string& where) : where_(where) {
  for (const PatternAlternative& alternative : ast.alternatives) {
    State accept;
    accept.kind = alternative.anchored_end ? Kind::kAcceptAtEnd : Kind::kAcceptNow;
    const std::uint32_t start = build(alternative.body, add_state(accept));
    (alternative.anchored_start ? anchored_starts_ : floating_starts_).push_back(start);
  }
}

std::uint32_t PatternNfa::add_state(State state) {
  // Checked on every state, so a repetition of repetitions stops here before it takes the memory.
  if (states_.size() >= kMaxStates) {
    throw Error(fmt::format("{}: pattern is too large to evaluate (its counted repetitions expand "
                            "to more than {} automaton states)",
                            where_, kMaxStates),
                ErrorCode::kLimit, schema_location(where_));
  }
  states_.push_back(state);
  return static_cast<std::uint32_t>(states_.size() - 1);
}

std::uint32_t PatternNfa::build(const PatternNode& node, std::uint32_t next) {
  switch (node.kind) {
    case PatternNode::Kind::kEmpty:
      // A state even for nothing: every node then costs one, so a repetition of an empty group
      // also runs into the budget instead of looping without it.
      return add_state({.kind = Kind::kJump, .out = next});
    case PatternNode::Kind::kSet: {
      auto [it, inserted] =
          set_of_node_.try_emplace(&node, static_cast<std::uint32_t>(sets_.size()));
      if (inserted) sets_.push_back(node.set);
      return add_state({.kind = Kind::kSet, .set = it->second, .out = next});
    }
    case PatternNode::Kind::kConcat:
      for (auto it = node.children.rbegin(); it != node.children.rend(); ++it)
        next = build(*it, next);
      return next;
    case PatternNode::Kind::kAlternation: {
      // A chain of splits, the first alternative first.
      std::uint32_t start = build(node.children.back(), next);
      for (std::size_t i = node.children.size() - 1; i-- > 0;) {
        const std::uint32_t first = build(node.children[i], next);
        start = add_state({.kind = Kind::kSplit, .out = first, .out2 = start});
      }
      return start;
    }
    case PatternNode::Kind::kGroup:
      return build(node.children.front(), next);
    case PatternNode::Kind::kRepeat:
      return build_repeat(node, next);
  }
  return next;
}

// body{min,max} as min copies of the body followed by body* (unbounded) or by max-min nested
// optional copies (body(body(body)?)?)?, whose skips all go straight to `next`.
std::uint32_t PatternNfa::build_repeat(const PatternNode& node, std::uint32_t next) {
  const PatternNode& body = node.children.front();
  std::uint32_t current = next;
  if (!node.max) {
    const std::uint32_t loop = add_state({.kind = Kind::kSplit, .out2 = next});
    const std::uint32_t body_start = build(body, loop);
    states_[loop].out = body_start;
    current = loop;
  } else {
    for (std::size_t i = *node.max - node.min; i > 0; --i) {
      const std::uint32_t copy = build(body, current);
      current = add_state({.kind = Kind::kSplit, .out = copy, .out2 = next});
    }
  }
  for (std::size_t i = 0; i < node.min; ++i) current = build(body, current);
  return add_state({.kind = Kind::kJump, .out = current});  // `x{0}` costs a state too
}

bool PatternNfa::search(std::string_view utf8) const {
  // The live states before each character: the reading ones (kSet) and kAcceptAtEnd, each once,
  // found by an explicit stack over the epsilon moves (marks stamped with the step's generation).
  std::vector<std::uint32_t> mark(states_.size(), 0);
  std::uint32_t generation = 0;
  std::vector<std::uint32_t> current;
  std::vector<std::uint32_t> next;
  std::vector<std::uint32_t> stack;
  const auto new_step = [&] {
    if (++generation == 0) {
      std::fill(mark.begin(), mark.end(), 0);
      generation = 1;
    }
  };
  // Adds the closure of `state` to `live`; true when it reaches kAcceptNow.
  const auto close = [&](std::uint32_t state, std::vector<std::uint32_t>& live) {
    stack.assign(1, state);
    while (!stack.empty()) {
      const std::uint32_t s = stack.back();
      stack.pop_back();
      if (mark[s] == generation) continue;
      mark[s] = generation;
      const State& st = states_[s];
      switch (st.kind) {
        case Kind::kSplit:
          stack.push_back(st.out2);
          stack.push_back(st.out);
          break;
        case Kind::kJump:
          stack.push_back(st.out);
          break;
        case Kind::kAcceptNow:
          return true;
        case Kind::kSet:
        case Kind::kAcceptAtEnd:
          live.push_back(s);
          break;
      }
    }
    return false;
  };

  new_step();
  for (const std::uint32_t start : anchored_starts_)
    if (close(start, current)) return true;
  for (const std::uint32_t start : floating_starts_)
    if (close(start, current)) return true;
  for (std::size_t pos = 0; pos < utf8.size();) {
    if (current.empty() && floating_starts_.empty()) return false;
    const char32_t c = decode_utf8(utf8, pos);
    new_step();
    next.clear();
    for (const std::uint32_t s : current) {
      const State& st = states_[s];
      if (st.kind == Kind::kSet && nfa_set_contains(sets_[st.set], c) && close(st.out, next))
        return true;
    }
    // Not anchored at the start: a match may also begin after this character.
    for (const std::uint32_t start : floating_starts_)
      if (close(start, next)) return true;
    std::swap(current, next);
  }
  return std::any_of(current.begin(), current.end(),
                     [&](std::uint32_t s) { return states_[s].kind == Kind::kAcceptAtEnd; });
}

}  // namespace glrmask::json_schema
