#include "lexer/regex/munch_cuts.h"

#include <set>
#include <unordered_set>
#include <utility>

namespace glrmask::lexer {
namespace {

// Sets of terminals as bit rows.
class TerminalBits {
 public:
  explicit TerminalBits(std::size_t terminals) : words_((terminals + 63) / 64) {}
  std::vector<uint64_t> empty() const { return std::vector<uint64_t>(words_, 0); }
  static bool test(const std::vector<uint64_t>& bits, uint32_t t) {
    return ((bits[t / 64] >> (t % 64)) & 1) != 0;
  }
  static void set(std::vector<uint64_t>& bits, uint32_t t) {
    bits[t / 64] |= uint64_t{1} << (t % 64);
  }
  // bits |= other; true when it grew.
  static bool merge(std::vector<uint64_t>& bits, const std::vector<uint64_t>& other) {
    bool grew = false;
    for (std::size_t w = 0; w < bits.size(); ++w) {
      const uint64_t merged = bits[w] | other[w];
      grew = grew || merged != bits[w];
      bits[w] = merged;
    }
    return grew;
  }

 private:
  std::size_t words_;
};

// FOLLOW of every terminal, over terminals. Ignored terminals may come anywhere: they are in
// every set, and anything may follow them.
std::vector<std::vector<uint64_t>> terminal_follow_sets(const GrammarModel& grammar) {
  const std::size_t terminals = grammar.num_terminals();
  const std::size_t symbols = grammar.num_symbols();
  const TerminalBits bits(terminals);
  std::vector<uint8_t> nullable(symbols, 0);
  std::vector<std::vector<uint64_t>> first(symbols, bits.empty());
  for (uint32_t t = 0; t < terminals; ++t) TerminalBits::set(first[t], t);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Rule& rule : grammar.rules()) {
      const uint32_t lhs = rule.lhs.value();
      bool all_nullable = true;
      for (const SymbolId symbol : rule.rhs) {
        changed = TerminalBits::merge(first[lhs], first[symbol.value()]) || changed;
        if (!nullable[symbol.value()]) {
          all_nullable = false;
          break;
        }
      }
      if (all_nullable && !nullable[lhs]) {
        nullable[lhs] = 1;
        changed = true;
      }
    }
  }
  std::vector<std::vector<uint64_t>> follow(symbols, bits.empty());
  for (bool changed = true; changed;) {
    changed = false;
    for (const Rule& rule : grammar.rules()) {
      std::vector<uint64_t> trailer = follow[rule.lhs.value()];
      for (auto it = rule.rhs.rbegin(); it != rule.rhs.rend(); ++it) {
        const uint32_t symbol = it->value();
        changed = TerminalBits::merge(follow[symbol], trailer) || changed;
        if (nullable[symbol]) {
          TerminalBits::merge(trailer, first[symbol]);
        } else {
          trailer = first[symbol];
        }
      }
    }
  }
  follow.resize(terminals);
  std::vector<uint64_t> everything = bits.empty();
  for (uint32_t t = 0; t < terminals; ++t) TerminalBits::set(everything, t);
  for (uint32_t t = 0; t < terminals; ++t) {
    if (grammar.terminals()[t].ignored) {
      follow[t] = everything;
      for (auto& row : follow) TerminalBits::set(row, t);
    }
  }
  return follow;
}

// Search states: the longer lexeme's DFA state, the follower lexeme's DFA state, and the terminal
// whose FOLLOW set the follower belongs to.
struct Probe {
  uint32_t longer;
  uint32_t follower;
  uint32_t context;
};

constexpr std::size_t kSearchBudget = std::size_t{1} << 22;

class CutFinder {
 public:
  CutFinder(const GrammarModel& grammar, const LexerDfa& dfa)
      : dfa_(dfa), follow_(terminal_follow_sets(grammar)) {}

  std::vector<MunchCut> run() {
    std::vector<MunchCut> cuts;
    std::set<std::pair<uint32_t, std::vector<uint32_t>>> reported;
    const uint32_t start = dfa_.start_state();
    for (uint32_t s = 1; s < dfa_.num_states(); ++s) {
      if (s == start || dfa_.label(s) == LexerDfa::kNoLabel) continue;
      for (const uint32_t accepted : dfa_.label_terminals(dfa_.label(s))) {
        for (const uint8_t byte : dfa_.byte_classes()) {
          const uint32_t longer = dfa_.next(s, byte);
          const uint32_t follower = dfa_.next(start, byte);
          if (longer == LexerDfa::kDeadState || !may_follow(follower, accepted)) continue;
          std::vector<uint32_t> culprits;
          if (!search({longer, follower, accepted}, culprits)) continue;
          if (reported.emplace(accepted, culprits).second) cuts.push_back({accepted, culprits});
        }
      }
    }
    return cuts;
  }

 private:
  // The follower state is inside a lexeme of a terminal that may follow `context`.
  bool may_follow(uint32_t follower, uint32_t context) const {
    if (follower == LexerDfa::kDeadState) return false;
    for (const uint32_t t : dfa_.viable_terminals(follower))
      if (TerminalBits::test(follow_[context], t)) return true;
    return false;
  }

  static uint64_t key(const Probe& probe) {
    return uint64_t{probe.longer} << 42 | uint64_t{probe.follower} << 21 | probe.context;
  }

  // True, with the terminals of the longer lexeme, when some text leads from `first` to a state
  // that accepts for the longer lexeme while the same text is still a sequence of followers.
  bool search(const Probe& first, std::vector<uint32_t>& culprits) {
    std::vector<Probe> stack{first};
    if (!visited_.insert(key(first)).second) return false;
    const uint32_t start = dfa_.start_state();
    while (!stack.empty()) {
      const Probe probe = stack.back();
      stack.pop_back();
      if (dfa_.label(probe.longer) != LexerDfa::kNoLabel || dfa_.is_tentative(probe.longer)) {
        const LabelId label = dfa_.label(probe.longer) != LexerDfa::kNoLabel
                                  ? dfa_.label(probe.longer)
                                  : dfa_.tentative_label(probe.longer);
        const auto terminals = dfa_.label_terminals(label);
        culprits.assign(terminals.begin(), terminals.end());
        return true;
      }
      if (++steps_ > kSearchBudget) {
        const auto viable = dfa_.viable_terminals(probe.longer);
        culprits.assign(viable.begin(), viable.end());
        return true;
      }
      auto push = [&](const Probe& next) {
        if (visited_.insert(key(next)).second) stack.push_back(next);
      };
      // The follower's lexeme may end here: the next one follows it.
      if (probe.follower != start && dfa_.label(probe.follower) != LexerDfa::kNoLabel) {
        for (const uint32_t ended : dfa_.label_terminals(dfa_.label(probe.follower))) {
          if (TerminalBits::test(follow_[probe.context], ended)) push({probe.longer, start, ended});
        }
      }
      for (const uint8_t byte : dfa_.byte_classes()) {
        const uint32_t longer = dfa_.next(probe.longer, byte);
        const uint32_t follower = dfa_.next(probe.follower, byte);
        if (longer == LexerDfa::kDeadState || !may_follow(follower, probe.context)) continue;
        push({longer, follower, probe.context});
      }
    }
    return false;
  }

  const LexerDfa& dfa_;
  std::vector<std::vector<uint64_t>> follow_;
  std::unordered_set<uint64_t> visited_;
  std::size_t steps_ = 0;
};

}  // namespace

std::vector<MunchCut> find_munch_cuts(const GrammarModel& grammar, const LexerDfa& dfa) {
  GLRMASK_DCHECK(dfa.terminals().size() == grammar.num_terminals(),
                 "DFA of {} terminals, grammar of {}", dfa.terminals().size(),
                 grammar.num_terminals());
  GLRMASK_DCHECK(dfa.num_states() < (1u << 21) && grammar.num_terminals() < (1u << 21),
                 "search keys hold 21 bits per field");
  return CutFinder(grammar, dfa).run();
}

}  // namespace glrmask::lexer
