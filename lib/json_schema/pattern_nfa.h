// A parsed pattern (pattern_ast.h) as a Thompson automaton over code points, run on concrete
// strings by simulating every state at once: time linear in the text (times the automaton's size),
// memory independent of it, no backtracking and no recursion on the text. Counted repetitions are
// expanded into copies, within a budget of kMaxStates states.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/json_schema/pattern_ast.h"
#include "lib/json_schema/regex.h"

namespace glrmask::json_schema {

class PatternNfa {
 public:
  // Enough for any pattern a schema writes by hand; `(a{1000}){1000}` is not.
  static constexpr std::size_t kMaxStates = 200000;

  // Throws glrmask::Error (kLimit) naming `where` when the automaton would need more than
  // kMaxStates states.
  PatternNfa(const PatternAst& ast, const std::string& where);

  // Whether the pattern matches `utf8` (valid UTF-8) with the search semantics of
  // translate_pattern: an alternative without ^ may start anywhere, one without $ end anywhere.
  bool search(std::string_view utf8) const;

  std::size_t state_count() const { return states_.size(); }

 private:
  enum class Kind : std::uint8_t {
    kSet,          // reads one code point of sets_[set], then goes to `out`
    kSplit,        // goes to `out` and to `out2` without reading
    kJump,         // goes to `out` without reading
    kAcceptNow,    // an alternative without $ has matched: the search succeeds
    kAcceptAtEnd,  // an alternative with $ has matched, which counts at the end of the text only
  };
  static constexpr std::uint32_t kNoState = 0xFFFFFFFF;
  struct State {
    Kind kind = Kind::kJump;
    std::uint32_t set = 0;
    std::uint32_t out = kNoState;
    std::uint32_t out2 = kNoState;
  };

  std::uint32_t add_state(State state);
  // The states of `node` followed by the state `next`; returns the first.
  std::uint32_t build(const PatternNode& node, std::uint32_t next);
  std::uint32_t build_repeat(const PatternNode& node, std::uint32_t next);

  std::string where_;  // for the error of add_state
  std::vector<State> states_;
  std::vector<CodePointSet> sets_;
  // A set node's index in sets_, so that the copies of a counted repetition share one set.
  std::unordered_map<const PatternNode*, std::uint32_t> set_of_node_;
  std::vector<std::uint32_t> anchored_starts_;  // alternatives with ^: tried at the start only
  std::vector<std::uint32_t> floating_starts_;  // the others: tried at every position
};

}  // namespace glrmask::json_schema
