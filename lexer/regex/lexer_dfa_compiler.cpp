#include "lexer/regex/lexer_dfa_compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "lexer/regex/dfa_minimization.h"
#include "lexer/regex/lookahead_conjunction.h"
#include "lexer/regex/nfa.h"
#include "lexer/regex/regex_parser.h"
#include "lexer/regex/subset_construction.h"
#include "lexer/runtime/byte_classes.h"
#include "lib/core/error.h"
#include "lib/grammar/grammar_error.h"

namespace glrmask::lexer {

namespace {

std::string where(const TerminalSpec& spec) {
  return fmt::format("{}: terminal {}", spec.origin.empty() ? "<unknown>" : spec.origin, spec.name);
}

void validate_names(std::span<const TerminalSpec> terminals) {
  if (terminals.empty()) throw Error("lexer: no terminals to compile", ErrorCode::kGrammar);
  std::map<std::string_view, const TerminalSpec*> seen;
  for (const TerminalSpec& spec : terminals) {
    if (spec.name.empty()) {
      throw Error(fmt::format("{}: terminal without a name", spec.origin), ErrorCode::kGrammar,
                  parse_source_location(spec.origin));
    }
    auto [it, inserted] = seen.emplace(spec.name, &spec);
    if (!inserted) {
      throw Error(fmt::format("{}: duplicate terminal name (first defined at {})", where(spec),
                              it->second->origin),
                  ErrorCode::kGrammar, parse_source_location(spec.origin));
    }
  }
}

Nfa build_nfa(std::span<const TerminalSpec> terminals, size_t max_states) {
  Nfa nfa;
  for (const TerminalSpec& spec : terminals) {
    if (spec.external) {
      nfa.add_unmatchable_terminal();
      continue;
    }
    if (!spec.byte_ranges.empty()) {
      nfa.add_byte_terminal(spec.byte_ranges);
      continue;
    }
    if (spec.token) {
      nfa.add_token_terminal(*spec.token, spec.token_negated, where(spec), max_states);
      continue;
    }
    const std::string origin = where(spec);
    // Leading lookaheads: the intersection and difference of prefix-free languages
    // (lookahead_conjunction.h).
    if (auto terms = split_lookahead_terms(spec.regex, spec.flags, origin)) {
      add_lookahead_terminal(nfa, *terms, spec.flags, origin, max_states);
      continue;
    }
    const Regex regex = parse_regex(spec.regex, spec.flags, origin);
    if (spec.whole_language) {
      // Its empty match is dropped by the subset construction; the grammar allows the empty text
      // where the pattern does.
      const auto terminal = static_cast<uint32_t>(nfa.starts.size());
      nfa.whole_language.resize(terminal + 1, 0);
      nfa.whole_language[terminal] = 1;
      nfa.add_terminal(regex, origin, max_states);
      continue;
    }
    if (regex.min_length() == 0) {
      throw Error(fmt::format("{}: /{}/ matches the empty string; a lexer terminal must consume "
                              "at least one character",
                              origin, spec.regex),
                  ErrorCode::kGrammar, parse_source_location(spec.origin));
    }
    nfa.add_terminal(regex, origin, max_states);
  }
  return nfa;
}

// Names the terminal responsible when the combined DFA is too large.
[[noreturn]] void report_too_many_states(std::span<const TerminalSpec> terminals,
                                         const LexerDfaLimits& limits) {
  for (size_t i = 0; i < terminals.size(); ++i) {
    const Nfa alone = build_nfa(terminals.subspan(i, 1), limits.max_nfa_states);
    if (!build_leftmost_first_dfa(alone, limits.max_dfa_states)) {
      throw Error(
          fmt::format("{}: /{}/ needs more than {} DFA states, or {} NFA threads in them (limit "
                      "Limits::max_lexer_states)",
                      where(terminals[i]), terminals[i].regex, limits.max_dfa_states,
                      limits.max_dfa_states * kMaxThreadsPerState),
          ErrorCode::kLimit, parse_source_location(terminals[i].origin));
    }
  }
  throw Error(fmt::format("lexer: the {} terminals together need more than {} DFA states, or {} "
                          "NFA threads in them (limit Limits::max_lexer_states)",
                          terminals.size(), limits.max_dfa_states,
                          limits.max_dfa_states * kMaxThreadsPerState),
              ErrorCode::kLimit);
}

}  // namespace

// Turns the minimized class DFA into the LexerDfa layout; a friend of LexerDfa.
class LexerDfaAssembler {
 public:
  LexerDfaAssembler(std::span<const TerminalSpec> terminals, const LexerDfaLimits& limits)
      : terminals_(terminals), limits_(limits) {}

  LexerDfa assemble() {
    const auto started = std::chrono::steady_clock::now();
    validate_names(terminals_);
    const Nfa nfa = build_nfa(terminals_, limits_.max_nfa_states);
    std::optional<ClassDfa> subset = build_leftmost_first_dfa(nfa, limits_.max_dfa_states);
    if (!subset) report_too_many_states(terminals_, limits_);

    dfa_.terminals_.assign(terminals_.begin(), terminals_.end());
    dfa_.label_begin_ = {0, 0};
    dfa_.label_ignored_ = {0};
    std::vector<StateAccept> subset_accept(subset->num_states);
    for (uint32_t s = 0; s < subset->num_states; ++s) subset_accept[s] = accept_of(*subset, s);
    // States start in blocks by what they accept. The start state means "between lexemes" to the
    // session and the Terminal DWA (can_finish, fork boundaries): it must not merge with a state
    // inside a lexeme that happens to behave alike (for `/(a|b)*abb/` the state after "b" does),
    // so it starts in a block of its own.
    std::vector<uint32_t> initial_block(subset->num_states);
    {
      std::map<std::tuple<LabelId, LabelId, int>, uint32_t> blocks;
      for (uint32_t s = 0; s < subset->num_states; ++s) {
        const StateAccept& a = subset_accept[s];
        initial_block[s] =
            blocks.try_emplace({a.label, a.tentative, a.veto}, static_cast<uint32_t>(blocks.size()))
                .first->second;
      }
    }
    initial_block[subset->start] = UINT32_MAX;
    uint32_t num_blocks = 0;
    const std::vector<uint32_t> block = minimize_dfa(
        subset->next, subset->num_states, subset->classes.count(), initial_block, num_blocks);
    lay_out(*subset, block, num_blocks, subset_accept);
    compute_final_states();
    dfa_.has_tentative_ = std::any_of(dfa_.tentative_labels_.begin(), dfa_.tentative_labels_.end(),
                                      [](LabelId label) { return label != LexerDfa::kNoLabel; });
    compute_viable_terminals(subset->classes);
    dfa_.byte_classes_ = byte_class_representatives(dfa_, subset->classes.representative);

    LexerDfaStats& stats = dfa_.stats_;
    stats.terminals = terminals_.size();
    stats.nfa_states = nfa.states.size();
    stats.byte_classes = subset->classes.count();
    stats.subset_states = subset->num_states;
    stats.states = dfa_.num_states();
    stats.build_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return std::move(dfa_);
  }

 private:
  // What a subset state accepts: a label, or a label held back one byte (a match that a
  // `(?!qq)` guard voids when the next byte is `veto`; regex_parser.cpp).
  struct StateAccept {
    LabelId label = LexerDfa::kNoLabel;
    LabelId tentative = LexerDfa::kNoLabel;
    int veto = -1;
  };

  StateAccept accept_of(const ClassDfa& subset, uint32_t s) {
    const auto begin = subset.matched_begin[s];
    const auto end = subset.matched_begin[s + 1];
    std::vector<uint32_t> matched(subset.matched.begin() + begin, subset.matched.begin() + end);
    const std::vector<uint32_t> kept = reduce_ties(matched);
    int veto = -2;  // not seen yet
    bool mixed = false;
    for (uint32_t i = begin; i < end; ++i) {
      const int v = subset.matched_veto[i];
      if (veto == -2) {
        veto = v;
      } else if (veto != v) {
        mixed = true;
      }
    }
    StateAccept accept;
    if (veto < 0) {
      accept.label = intern_label(kept);
      return accept;
    }
    if (mixed) {
      std::string names;
      for (const uint32_t t : matched) names += (names.empty() ? "" : ", ") + terminals_[t].name;
      throw Error(
          fmt::format(
              "lexer: terminals {} end on the same lexeme, some of them only where a (?!qq) guard "
              "lets them; that combination is not supported",
              names),
          ErrorCode::kGrammar, parse_source_location(terminals_[matched.front()].origin));
    }
    accept.tentative = intern_label(kept);
    accept.veto = veto;
    return accept;
  }

  std::vector<uint32_t> reduce_ties(std::vector<uint32_t> matched) const {
    if (matched.size() <= 1) return matched;
    int best = terminals_[matched[0]].priority;
    for (uint32_t t : matched) best = std::max(best, terminals_[t].priority);
    std::erase_if(matched, [&](uint32_t t) { return terminals_[t].priority != best; });
    const bool any_literal = std::any_of(matched.begin(), matched.end(),
                                         [&](uint32_t t) { return terminals_[t].is_literal; });
    if (any_literal) {
      std::erase_if(matched, [&](uint32_t t) { return !terminals_[t].is_literal; });
    }
    std::sort(matched.begin(), matched.end());
    return matched;
  }

  LabelId intern_label(const std::vector<uint32_t>& members) {
    if (members.empty()) return LexerDfa::kNoLabel;
    auto [it, inserted] =
        label_ids_.try_emplace(members, static_cast<LabelId>(dfa_.label_ignored_.size()));
    if (inserted) {
      dfa_.label_terminals_.insert(dfa_.label_terminals_.end(), members.begin(), members.end());
      dfa_.label_begin_.push_back(static_cast<uint32_t>(dfa_.label_terminals_.size()));
      const bool ignored = std::all_of(members.begin(), members.end(),
                                       [&](uint32_t t) { return terminals_[t].ignored; });
      dfa_.label_ignored_.push_back(ignored ? 1 : 0);
    }
    return it->second;
  }

  // Numbers the blocks: the dead state's block becomes 0, the rest in breadth-first order from
  // the start (neighbouring states end up close together in the table).
  void lay_out(const ClassDfa& subset, const std::vector<uint32_t>& block, uint32_t num_blocks,
               const std::vector<StateAccept>& subset_accept) {
    const uint32_t num_classes = subset.classes.count();
    std::vector<uint32_t> member(num_blocks, 0);  // one subset state of every block
    for (uint32_t s = subset.num_states; s-- > 0;) member[block[s]] = s;
    constexpr uint32_t kUnnumbered = UINT32_MAX;
    std::vector<uint32_t> number(num_blocks, kUnnumbered);
    std::vector<uint32_t> order;
    auto visit = [&](uint32_t b) {
      if (number[b] != kUnnumbered) return;
      number[b] = static_cast<uint32_t>(order.size());
      order.push_back(b);
    };
    visit(block[0]);  // subset state 0 is the dead state
    visit(block[subset.start]);
    for (size_t i = 0; i < order.size(); ++i) {
      const uint32_t s = member[order[i]];
      for (uint32_t c = 0; c < num_classes; ++c) visit(block[subset.next[s * num_classes + c]]);
    }
    dfa_.start_ = number[block[subset.start]];
    dfa_.transitions_.resize(order.size() * 256);
    dfa_.labels_.resize(order.size());
    dfa_.tentative_labels_.assign(order.size(), LexerDfa::kNoLabel);
    dfa_.vetoes_.assign(order.size(), -1);
    // A state's targets are numbered once per class, then spread over the class's bytes.
    std::vector<uint32_t> class_target(num_classes);
    for (uint32_t state = 0; state < order.size(); ++state) {
      const uint32_t s = member[order[state]];
      dfa_.labels_[state] = subset_accept[s].label;
      dfa_.tentative_labels_[state] = subset_accept[s].tentative;
      dfa_.vetoes_[state] = static_cast<int16_t>(subset_accept[s].veto);
      for (uint32_t c = 0; c < num_classes; ++c)
        class_target[c] = number[block[subset.next[size_t{s} * num_classes + c]]];
      uint32_t* row = &dfa_.transitions_[size_t{state} * 256];
      for (int byte = 0; byte < 256; ++byte)
        row[byte] = class_target[subset.classes.class_of[byte]];
    }
  }

  void compute_final_states() {
    const uint32_t n = dfa_.num_states();
    dfa_.final_.assign(n, 0);
    for (uint32_t s = 1; s < n; ++s) {
      if (dfa_.labels_[s] == LexerDfa::kNoLabel) continue;
      const uint32_t* row = &dfa_.transitions_[size_t{s} * 256];
      dfa_.final_[s] =
          std::all_of(row, row + 256, [](uint32_t t) { return t == LexerDfa::kDeadState; });
    }
  }

  // Backward reachability from the accepting states of each terminal.
  void compute_viable_terminals(const ByteClasses& classes) {
    const uint32_t n = dfa_.num_states();
    // Predecessor lists in CSR form, one entry per distinct (state, successor): the bytes of one
    // subset class move every state alike, so one representative byte per class suffices.
    std::vector<uint32_t> successors;
    std::vector<uint32_t> successor_begin = {0};
    for (uint32_t s = 0; s < n; ++s) {
      const size_t first = successors.size();
      for (const uint8_t byte : classes.representative)
        successors.push_back(dfa_.transitions_[size_t{s} * 256 + byte]);
      std::sort(successors.begin() + static_cast<std::ptrdiff_t>(first), successors.end());
      successors.erase(
          std::unique(successors.begin() + static_cast<std::ptrdiff_t>(first), successors.end()),
          successors.end());
      successor_begin.push_back(static_cast<uint32_t>(successors.size()));
    }
    std::vector<uint32_t> predecessor_begin(n + 1, 0);
    for (const uint32_t t : successors) ++predecessor_begin[t + 1];
    for (uint32_t s = 0; s < n; ++s) predecessor_begin[s + 1] += predecessor_begin[s];
    std::vector<uint32_t> predecessor_list(successors.size());
    {
      std::vector<uint32_t> fill(predecessor_begin.begin(), predecessor_begin.end() - 1);
      for (uint32_t s = 0; s < n; ++s)
        for (uint32_t i = successor_begin[s]; i < successor_begin[s + 1]; ++i)
          predecessor_list[fill[successors[i]]++] = s;
    }
    auto predecessors = [&](uint32_t t) {
      return std::span<const uint32_t>(predecessor_list.data() + predecessor_begin[t],
                                       predecessor_list.data() + predecessor_begin[t + 1]);
    };
    // The states that accept each terminal (or hold it back), in one pass over the states
    // rather than one per terminal: a schema's lexer has hundreds of terminals.
    const uint32_t num_terminals = static_cast<uint32_t>(terminals_.size());
    std::vector<uint32_t> accepting_begin(num_terminals + 1, 0);
    std::vector<uint32_t> accepting;
    for_each_accepted(n, [&](uint32_t, uint32_t terminal) { ++accepting_begin[terminal + 1]; });
    for (uint32_t t = 0; t < num_terminals; ++t) accepting_begin[t + 1] += accepting_begin[t];
    accepting.resize(accepting_begin[num_terminals]);
    {
      std::vector<uint32_t> fill(accepting_begin.begin(), accepting_begin.end() - 1);
      for_each_accepted(n, [&](uint32_t s, uint32_t terminal) { accepting[fill[terminal]++] = s; });
    }
    // (state, terminal) pairs in terminal order, then grouped by state with a stable counting
    // sort, so every state's list ascends without a vector per state.
    std::vector<std::pair<uint32_t, uint32_t>> reached;
    std::vector<uint32_t> seen(n, UINT32_MAX);
    std::vector<uint32_t> queue;
    for (uint32_t terminal = 0; terminal < num_terminals; ++terminal) {
      queue.clear();
      for (uint32_t i = accepting_begin[terminal]; i < accepting_begin[terminal + 1]; ++i) {
        const uint32_t s = accepting[i];
        if (seen[s] == terminal) continue;
        seen[s] = terminal;
        queue.push_back(s);
      }
      for (size_t i = 0; i < queue.size(); ++i) {
        reached.emplace_back(queue[i], terminal);
        for (uint32_t p : predecessors(queue[i])) {
          if (seen[p] != terminal) {
            seen[p] = terminal;
            queue.push_back(p);
          }
        }
      }
    }
    dfa_.viable_begin_.assign(n + 1, 0);
    for (const auto& [s, terminal] : reached) ++dfa_.viable_begin_[s + 1];
    for (uint32_t s = 0; s < n; ++s) dfa_.viable_begin_[s + 1] += dfa_.viable_begin_[s];
    dfa_.viable_.resize(reached.size());
    std::vector<uint32_t> fill(dfa_.viable_begin_.begin(), dfa_.viable_begin_.end() - 1);
    for (const auto& [s, terminal] : reached) dfa_.viable_[fill[s]++] = terminal;
  }

  // Calls f(state, terminal) for every terminal each state other than the dead one accepts or
  // holds back, states ascending.
  template <typename F>
  void for_each_accepted(uint32_t n, F&& f) const {
    for (uint32_t s = 1; s < n; ++s) {
      for (const uint32_t terminal : dfa_.label_terminals(dfa_.labels_[s])) f(s, terminal);
      for (const uint32_t terminal : dfa_.label_terminals(dfa_.tentative_labels_[s]))
        f(s, terminal);
    }
  }

  std::span<const TerminalSpec> terminals_;
  LexerDfaLimits limits_;
  LexerDfa dfa_;
  std::map<std::vector<uint32_t>, LabelId> label_ids_;
};

LexerDfa compile_lexer_dfa(std::span<const TerminalSpec> terminals, const LexerDfaLimits& limits) {
  return LexerDfaAssembler(terminals, limits).assemble();
}

}  // namespace glrmask::lexer
