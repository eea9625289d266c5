// write_compiled_grammar / read_compiled_grammar (compiled_grammar_image.h). The checks on
// reading are what make a damaged image harmless: each one is named after the invariant of the
// component it restores (lr_grammar.h, lr0_automaton.h, lalr_lookaheads.h, lr_table.h).
#include "glr/compiled_grammar_image.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lexer/regex/grammar_terminals.h"
#include "lib/core/check.h"

namespace glrmask::glr {

// A friend of the LR classes and of CompiledGrammar: reads and writes their private arrays.
class CompiledGrammarImage {
 public:
  static void write(const CompiledGrammar& grammar, BinaryWriter& out);
  static std::shared_ptr<const CompiledGrammar> read(BinaryReader& in, GrammarModel model,
                                                     const ParseOptions& options);

 private:
  static void write_lr_grammar(const LrGrammar& grammar, BinaryWriter& out);
  static LrGrammar read_lr_grammar(BinaryReader& in, const GrammarModel& model);
  static void write_lr0(const Lr0Automaton& lr0, BinaryWriter& out);
  static Lr0Automaton read_lr0(BinaryReader& in, const LrGrammar& grammar);
  static void write_lookaheads(const LalrLookaheads& lookaheads, std::uint32_t num_terminals,
                               BinaryWriter& out);
  static LalrLookaheads read_lookaheads(BinaryReader& in, const LrGrammar& grammar,
                                        const Lr0Automaton& lr0);
  static void write_table(const LrTable& table, BinaryWriter& out);
  static LrTable read_table(BinaryReader& in, ConflictPolicy policy, const LrGrammar& grammar,
                            const Lr0Automaton& lr0, const LalrLookaheads& lookaheads);
};

namespace {

constexpr std::uint32_t kImageTag = 0x4d494743;     // "CGIM"
constexpr std::uint32_t kImageEndTag = 0x444e4547;  // "GEND"
constexpr std::uint32_t kImageVersion = 1;
// Actions keep a state or rule id in 30 bits (lr_action.h).
constexpr std::uint32_t kMaxActionOperand = (1u << 30) - 1;

void put_strings(BinaryWriter& out, const std::vector<std::string>& strings) {
  out.put<std::uint64_t>(strings.size());
  for (const std::string& text : strings) out.put_string(text);
}

// No reserve: a damaged count runs into the end of the bytes after at most one string per eight
// remaining bytes, each needing its length.
std::vector<std::string> get_strings(BinaryReader& in, const char* field) {
  const auto count = in.get<std::uint64_t>(field);
  std::vector<std::string> strings;
  for (std::uint64_t i = 0; i < count; ++i) strings.push_back(in.get_string(field));
  return strings;
}

// Offsets into an array of `size` entries, one slice per entry of `entries` (plus the end).
void check_offsets(BinaryReader& in, const std::vector<std::uint32_t>& begin, std::size_t entries,
                   std::size_t size, const char* field) {
  if (begin.size() != entries + 1 || begin.front() != 0 || begin.back() != size ||
      !std::is_sorted(begin.begin(), begin.end()))
    in.fail(fmt::format("{}: not {} ascending offsets from 0 to {}", field, entries + 1, size));
}

template <typename T>
bool contains_sorted(std::span<const T> values, const T& value) {
  return std::binary_search(values.begin(), values.end(), value);
}

}  // namespace

// ---- LrGrammar ----

void CompiledGrammarImage::write_lr_grammar(const LrGrammar& grammar, BinaryWriter& out) {
  out.put<std::uint32_t>(grammar.num_terminals_);
  put_strings(out, grammar.names_);
  out.put_array<SymbolId>(grammar.lhs_);
  out.put_array<std::uint32_t>(grammar.rhs_begin_);
  out.put_array<SymbolId>(grammar.rhs_symbols_);
  out.put_array<int>(grammar.priority_);
  put_strings(out, grammar.origin_);
}

LrGrammar CompiledGrammarImage::read_lr_grammar(BinaryReader& in, const GrammarModel& model) {
  LrGrammar g;
  g.num_terminals_ = in.get<std::uint32_t>("LR grammar terminal count");
  if (g.num_terminals_ != model.num_terminals() + 1)
    in.fail(fmt::format("the LR grammar has {} terminals with $END, the grammar has {}",
                        g.num_terminals_, model.num_terminals()));
  g.names_ = get_strings(in, "LR grammar symbol names");
  const std::uint32_t terminals = g.num_terminals_;
  const std::size_t symbols = g.names_.size();
  if (symbols < std::size_t{terminals} + 2 || symbols > kMaxActionOperand)
    in.fail(fmt::format("the LR grammar has {} symbols for {} terminals", symbols, terminals));
  for (std::uint32_t t = 0; t + 1 < terminals; ++t)
    if (g.names_[t] != model.name(model.terminal_id(t)))
      in.fail(fmt::format("LR terminal {} is '{}', the grammar's is '{}'", t, g.names_[t],
                          model.name(model.terminal_id(t))));
  const auto end = g.end_of_input();
  const auto accept = static_cast<SymbolId>(symbols - 1);
  g.lhs_ = in.get_array<SymbolId>("LR rule left-hand sides");
  const std::size_t rules = g.lhs_.size();
  if (rules < 2 || rules > kMaxActionOperand)
    in.fail(fmt::format("the LR grammar has {} rules", rules));
  for (std::size_t r = 0; r < rules; ++r)
    if (g.lhs_[r] < terminals || g.lhs_[r] >= symbols || (g.lhs_[r] == accept) != (r + 1 == rules))
      in.fail(fmt::format("LR rule {} has left-hand side {}", r, g.lhs_[r]));
  g.rhs_begin_ = in.get_array<std::uint32_t>("LR rule offsets");
  g.rhs_symbols_ = in.get_array<SymbolId>("LR right-hand sides");
  check_offsets(in, g.rhs_begin_, rules, g.rhs_symbols_.size(), "LR rule offsets");
  for (std::size_t r = 0; r + 1 < rules; ++r)
    for (const SymbolId s : g.rhs(static_cast<RuleId>(r)))
      if (s >= accept || s == end)
        in.fail(fmt::format("LR rule {} uses symbol {} of {}", r, s, symbols));
  const auto augmented = g.rhs(static_cast<RuleId>(rules - 1));
  if (augmented.size() != 2 || augmented[0] < terminals || augmented[0] >= accept ||
      augmented[1] != end)
    in.fail("the LR grammar's last rule is not `$accept -> start $END`");
  g.priority_ = in.get_array<int>("LR rule priorities");
  g.origin_ = get_strings(in, "LR rule origins");
  if (g.priority_.size() != rules || g.origin_.size() != rules)
    in.fail(fmt::format("the LR grammar's priorities or origins are not one per rule ({})", rules));

  // rules_by_lhs: the counting sort of LrGrammar's constructor.
  g.rules_by_lhs_begin_.assign(g.num_nonterminals() + 1, 0);
  for (const SymbolId lhs : g.lhs_) ++g.rules_by_lhs_begin_[g.nonterminal_index(lhs) + 1];
  for (std::uint32_t i = 0; i < g.num_nonterminals(); ++i)
    g.rules_by_lhs_begin_[i + 1] += g.rules_by_lhs_begin_[i];
  g.rules_by_lhs_.resize(rules);
  std::vector<std::uint32_t> fill(g.rules_by_lhs_begin_.begin(), g.rules_by_lhs_begin_.end() - 1);
  for (RuleId rule = 0; rule < rules; ++rule)
    g.rules_by_lhs_[fill[g.nonterminal_index(g.lhs_[rule])]++] = rule;
  return g;
}

// ---- Lr0Automaton ----

void CompiledGrammarImage::write_lr0(const Lr0Automaton& lr0, BinaryWriter& out) {
  out.put_array<std::uint32_t>(lr0.kernel_begin_);
  out.put_array<Item>(lr0.kernels_);
  out.put_array<std::uint32_t>(lr0.predicted_begin_);
  out.put_array<SymbolId>(lr0.predicted_);
  out.put_array<std::uint32_t>(lr0.transition_begin_);
  out.put_array<Transition>(lr0.transitions_);
  out.put_array<SymbolId>(lr0.accessing_symbol_);
  out.put<StateId>(lr0.accept_state_);
}

Lr0Automaton CompiledGrammarImage::read_lr0(BinaryReader& in, const LrGrammar& g) {
  Lr0Automaton a;
  a.kernel_begin_ = in.get_array<std::uint32_t>("LR(0) kernel offsets");
  a.kernels_ = in.get_array<Item>("LR(0) kernels");
  a.predicted_begin_ = in.get_array<std::uint32_t>("LR(0) predicted offsets");
  a.predicted_ = in.get_array<SymbolId>("LR(0) predicted nonterminals");
  a.transition_begin_ = in.get_array<std::uint32_t>("LR(0) transition offsets");
  a.transitions_ = in.get_array<Transition>("LR(0) transitions");
  a.accessing_symbol_ = in.get_array<SymbolId>("LR(0) accessing symbols");
  a.accept_state_ = in.get<StateId>("LR(0) accept state");
  const std::size_t states = a.accessing_symbol_.size();
  if (states == 0 || states > kMaxActionOperand)
    in.fail(fmt::format("the LR(0) automaton has {} states", states));
  check_offsets(in, a.kernel_begin_, states, a.kernels_.size(), "LR(0) kernel offsets");
  check_offsets(in, a.predicted_begin_, states, a.predicted_.size(), "LR(0) predicted offsets");
  check_offsets(in, a.transition_begin_, states, a.transitions_.size(), "LR(0) transition offsets");
  if (a.accept_state_ >= states) in.fail(fmt::format("LR(0) accept state {}", a.accept_state_));
  const SymbolId end = g.end_of_input();
  const SymbolId accept = g.accept_symbol();
  const RuleId accept_rule = g.accept_rule();
  const auto is_nonterminal = [&](SymbolId s) { return s >= g.num_terminals() && s < accept; };

  std::vector<StateId> predicted_in(g.num_symbols(), kNoState);
  std::vector<StateId> transition_in(g.num_symbols(), kNoState);
  // Per state: the symbols, items and targets are in range, the kernel is reached on the
  // accessing symbol, predicted holds the closure, and every item with a symbol after the dot has
  // the transition on it (so a goto after a reduction always exists).
  for (StateId s = 0; s < states; ++s) {
    const SymbolId accessing = a.accessing_symbol_[s];
    if (s == 0 ? accessing != kNoSymbol : accessing >= accept || accessing == end)
      in.fail(fmt::format("LR(0) state {} has accessing symbol {}", s, accessing));
    const auto kernel = a.kernel(s);
    if (kernel.empty()) in.fail(fmt::format("LR(0) state {} has no kernel items", s));
    for (std::size_t i = 0; i < kernel.size(); ++i) {
      const Item item = kernel[i];
      if (item.rule >= g.num_rules() || item.dot > g.rhs_length(item.rule) ||
          (i > 0 && !(kernel[i - 1] < item)))
        in.fail(fmt::format("LR(0) state {} has kernel item {} out of order or range", s, i));
      if (s == 0 ? item.rule != accept_rule || item.dot != 0
                 : item.dot == 0 || g.rhs(item.rule)[item.dot - 1] != accessing)
        in.fail(fmt::format("LR(0) state {} has kernel item {} not reached on its symbol", s, i));
    }
    const auto predicted = a.predicted(s);
    for (std::size_t i = 0; i < predicted.size(); ++i)
      if (!is_nonterminal(predicted[i]) || (i > 0 && predicted[i] <= predicted[i - 1]))
        in.fail(fmt::format("LR(0) state {} predicts symbols out of order or range", s));
    const auto transitions = a.transitions(s);
    for (std::size_t i = 0; i < transitions.size(); ++i) {
      const Transition t = transitions[i];
      if (t.symbol >= accept || t.symbol == end || (i > 0 && t.symbol <= transitions[i - 1].symbol))
        in.fail(fmt::format("LR(0) state {} has transitions out of order or range", s));
      if (t.target == 0 || t.target >= states || a.accessing_symbol_[t.target] != t.symbol)
        in.fail(
            fmt::format("LR(0) state {} goes on symbol {} to state {}, which is not reached "
                        "on it",
                        s, t.symbol, t.target));
    }
    // Stamps instead of searches: the predicted rules are visited once per state predicting them.
    for (const SymbolId nonterminal : predicted) predicted_in[nonterminal] = s;
    for (const Transition t : transitions) transition_in[t.symbol] = s;
    const auto needs = [&](SymbolId next) {
      if (next == end) return;
      if (is_nonterminal(next) && predicted_in[next] != s)
        in.fail(fmt::format("LR(0) state {} does not predict nonterminal {}", s, next));
      if (transition_in[next] != s)
        in.fail(fmt::format("LR(0) state {} has no transition on symbol {}", s, next));
    };
    for (const Item item : kernel)
      if (item.dot < g.rhs_length(item.rule)) needs(g.rhs(item.rule)[item.dot]);
    for (const SymbolId nonterminal : predicted)
      for (const RuleId rule : g.rules_of(nonterminal))
        if (g.rhs_length(rule) > 0) needs(g.rhs(rule)[0]);
  }
  if (!contains_sorted(a.kernel(a.accept_state_), Item{accept_rule, 1}))
    in.fail(fmt::format("LR(0) accept state {} lacks `$accept -> start . $END`", a.accept_state_));
  // Every kernel item of a target comes from an item of the source one symbol earlier: a
  // reduction by a rule of length n then always finds n states below it on the stack.
  for (StateId s = 0; s < states; ++s) {
    for (const SymbolId nonterminal : a.predicted(s)) predicted_in[nonterminal] = s;
    for (const Transition t : a.transitions(s)) {
      for (const Item item : a.kernel(t.target)) {
        const bool from_closure = item.dot == 1 && predicted_in[g.lhs(item.rule)] == s;
        const bool from_kernel =
            !from_closure && contains_sorted(a.kernel(s), Item{item.rule, item.dot - 1});
        if (!from_kernel && !from_closure)
          in.fail(
              fmt::format("LR(0) state {} reaches state {}, whose kernel item on rule {} has "
                          "no origin in it",
                          s, t.target, item.rule));
      }
    }
  }
  // Predecessors: the sources of the transitions into each state, ascending.
  a.predecessor_begin_.assign(states + 1, 0);
  for (const Transition& t : a.transitions_) ++a.predecessor_begin_[t.target + 1];
  for (std::size_t s = 0; s < states; ++s) a.predecessor_begin_[s + 1] += a.predecessor_begin_[s];
  a.predecessors_.resize(a.transitions_.size());
  std::vector<std::uint32_t> fill(a.predecessor_begin_.begin(), a.predecessor_begin_.end() - 1);
  for (StateId s = 0; s < states; ++s)
    for (const Transition& t : a.transitions(s)) a.predecessors_[fill[t.target]++] = s;
  return a;
}

// ---- LalrLookaheads ----

void CompiledGrammarImage::write_lookaheads(const LalrLookaheads& lookaheads,
                                            std::uint32_t num_terminals, BinaryWriter& out) {
  const std::size_t words = (std::size_t{num_terminals} + 63) / 64;
  std::vector<RuleId> rules;
  std::vector<std::uint64_t> bits;
  for (const Reduction& reduction : lookaheads.reductions_) {
    GLRMASK_DCHECK(reduction.lookahead.size() == num_terminals, "lookahead of {} terminals",
                   reduction.lookahead.size());
    rules.push_back(reduction.rule);
    const std::size_t first = bits.size();
    bits.resize(first + words, 0);
    boost::to_block_range(reduction.lookahead, bits.begin() + static_cast<std::ptrdiff_t>(first));
  }
  out.put_array<std::uint32_t>(lookaheads.begin_);
  out.put_array<RuleId>(rules);
  out.put_array<std::uint64_t>(bits);
}

LalrLookaheads CompiledGrammarImage::read_lookaheads(BinaryReader& in, const LrGrammar& g,
                                                     const Lr0Automaton& lr0) {
  LalrLookaheads l;
  l.begin_ = in.get_array<std::uint32_t>("LALR reduction offsets");
  const auto rules = in.get_array<RuleId>("LALR reduction rules");
  const auto bits = in.get_array<std::uint64_t>("LALR lookahead sets");
  const std::uint32_t terminals = g.num_terminals();
  const std::size_t words = (std::size_t{terminals} + 63) / 64;
  check_offsets(in, l.begin_, lr0.num_states(), rules.size(), "LALR reduction offsets");
  if (bits.size() != rules.size() * words)
    in.fail(fmt::format("LALR lookahead sets: {} words for {} reductions of {} terminals",
                        bits.size(), rules.size(), terminals));
  const std::uint64_t unused =
      terminals % 64 == 0 ? 0 : ~std::uint64_t{0} << (terminals % 64);  // bits past the last
  for (StateId s = 0; s < lr0.num_states(); ++s) {
    for (std::uint32_t i = l.begin_[s]; i < l.begin_[s + 1]; ++i) {
      const RuleId rule = rules[i];
      if (rule >= g.accept_rule() || (i > l.begin_[s] && rule <= rules[i - 1]))
        in.fail(fmt::format("LR state {} has reductions out of order or range", s));
      const bool completed = g.rhs_length(rule) == 0
                                 ? contains_sorted(lr0.predicted(s), g.lhs(rule))
                                 : contains_sorted(lr0.kernel(s), Item{rule, g.rhs_length(rule)});
      if (!completed)
        in.fail(fmt::format("LR state {} reduces by rule {}, which it has not completed", s, rule));
      if ((bits[(i + 1) * words - 1] & unused) != 0)
        in.fail(fmt::format("LR state {}: a lookahead set has bits past the {} terminals", s,
                            terminals));
    }
  }
  l.reductions_.reserve(rules.size());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const auto first = bits.begin() + static_cast<std::ptrdiff_t>(i * words);
    TerminalSet lookahead(first, first + static_cast<std::ptrdiff_t>(words));
    lookahead.resize(terminals);
    l.reductions_.push_back(Reduction{rules[i], std::move(lookahead)});
  }
  return l;
}

// ---- LrTable ----

void CompiledGrammarImage::write_table(const LrTable& table, BinaryWriter& out) {
  out.put<std::uint8_t>(static_cast<std::uint8_t>(table.policy_));
  out.put<std::uint32_t>(table.num_terminals_);
  out.put_array<std::uint32_t>(table.row_begin_);
  out.put_array<LrTable::Cell>(table.cells_);
  std::vector<std::uint32_t> actions;
  actions.reserve(table.actions_.size());
  for (const Action action : table.actions_) actions.push_back(action.bits());
  out.put_array<std::uint32_t>(actions);
  out.put_array<std::uint32_t>(table.goto_begin_);
  out.put_array<LrTable::GotoEntry>(table.gotos_);
}

LrTable CompiledGrammarImage::read_table(BinaryReader& in, ConflictPolicy policy,
                                         const LrGrammar& g, const Lr0Automaton& lr0,
                                         const LalrLookaheads& lookaheads) {
  LrTable t;
  if (in.get<std::uint8_t>("LR table policy") != static_cast<std::uint8_t>(policy))
    in.fail("the LR tables are not in the expected policy order");
  t.policy_ = policy;
  t.num_terminals_ = in.get<std::uint32_t>("LR table terminal count");
  if (t.num_terminals_ != g.num_terminals())
    in.fail(fmt::format("LR table over {} terminals, the grammar has {}", t.num_terminals_,
                        g.num_terminals()));
  t.row_begin_ = in.get_array<std::uint32_t>("LR table row offsets");
  t.cells_ = in.get_array<LrTable::Cell>("LR table cells");
  const auto action_bits = in.get_array<std::uint32_t>("LR table actions");
  t.goto_begin_ = in.get_array<std::uint32_t>("LR table goto offsets");
  t.gotos_ = in.get_array<LrTable::GotoEntry>("LR table gotos");
  const std::uint32_t states = lr0.num_states();
  if (t.cells_.empty()) in.fail("LR table without its sentinel cell");
  check_offsets(in, t.row_begin_, states, t.cells_.size() - 1, "LR table row offsets");
  for (std::size_t c = 0; c < t.cells_.size(); ++c)
    if ((c == 0 && t.cells_[c].first_action != 0) ||
        (c > 0 && t.cells_[c].first_action < t.cells_[c - 1].first_action))
      in.fail(fmt::format("LR table cell {} starts its actions out of order", c));
  if (t.cells_.back().first_action != action_bits.size() || t.cells_.back().terminal != kNoSymbol)
    in.fail("the LR table's sentinel cell does not end the actions");
  check_offsets(in, t.goto_begin_, states, t.gotos_.size(), "LR table goto offsets");

  t.actions_.reserve(action_bits.size());
  for (StateId s = 0; s < states; ++s) {
    // Cells and transitions both ascend by symbol: one cursor finds each shift's transition.
    const auto transitions = lr0.transitions(s);
    std::size_t cursor = 0;
    for (std::uint32_t c = t.row_begin_[s]; c < t.row_begin_[s + 1]; ++c) {
      const SymbolId terminal = t.cells_[c].terminal;
      if (terminal >= g.num_terminals() ||
          (c > t.row_begin_[s] && terminal <= t.cells_[c - 1].terminal))
        in.fail(fmt::format("LR table row {} has terminals out of order or range", s));
      while (cursor < transitions.size() && transitions[cursor].symbol < terminal) ++cursor;
      const StateId shift_target =
          cursor < transitions.size() && transitions[cursor].symbol == terminal
              ? transitions[cursor].target
              : kNoState;
      for (std::uint32_t i = t.cells_[c].first_action; i < t.cells_[c + 1].first_action; ++i) {
        const std::uint32_t bits = action_bits[i];
        const std::uint32_t operand = bits >> 2;
        bool valid = false;
        switch (bits & 3u) {
          case 0:
            valid = terminal != g.end_of_input() && shift_target == operand;
            t.actions_.push_back(Action::shift(operand));
            break;
          case 1: {
            const auto reductions = lookaheads.reductions(s);
            const auto at = std::lower_bound(
                reductions.begin(), reductions.end(), operand,
                [](const Reduction& reduction, RuleId rule) { return reduction.rule < rule; });
            valid = at != reductions.end() && at->rule == operand;
            t.actions_.push_back(Action::reduce(operand));
            break;
          }
          case 2:
            valid = bits == 2 && s == lr0.accept_state() && terminal == g.end_of_input();
            t.actions_.push_back(Action::accept());
            break;
          default:
            break;
        }
        if (!valid)
          in.fail(
              fmt::format("LR table action {} (bits {:#x}) in state {} on terminal {} is not "
                          "one of the automaton's",
                          i, bits, s, terminal));
      }
    }
    // The gotos are exactly the automaton's transitions on nonterminals.
    const auto gotos = t.gotos(s);
    std::size_t next = 0;
    for (const Transition& transition : lr0.transitions(s)) {
      if (g.is_terminal(transition.symbol)) continue;
      if (next >= gotos.size() || gotos[next].nonterminal != transition.symbol ||
          gotos[next].target != transition.target)
        in.fail(fmt::format("LR table gotos of state {} differ from the automaton's", s));
      ++next;
    }
    if (next != gotos.size())
      in.fail(fmt::format("LR table gotos of state {} differ from the automaton's", s));
  }
  for (RuleId rule = 0; rule < g.num_rules(); ++rule) {
    t.rule_lhs_.push_back(g.lhs(rule));
    t.rule_length_.push_back(g.rhs_length(rule));
    t.rule_priority_.push_back(g.priority(rule));
  }
  return t;
}

// ---- CompiledGrammar ----

void CompiledGrammarImage::write(const CompiledGrammar& grammar, BinaryWriter& out) {
  const GrammarModel& model = grammar.grammar_;
  out.put(kImageTag);
  out.put(kImageVersion);
  out.put<std::uint64_t>(model.num_terminals());
  out.put<std::uint64_t>(model.num_symbols());
  out.put<std::uint64_t>(model.rules().size());
  out.put<std::uint8_t>(static_cast<std::uint8_t>(grammar.options_.policy));
  out.put<std::uint8_t>(static_cast<std::uint8_t>(grammar.options_.postlex));
  out.put_string(grammar.options_.start);
  out.put_array<SymbolId>(grammar.skippable_);

  grammar.dfa_.write(out);

  const UnrealizableRules& unrealizable = grammar.unrealizable_;
  std::vector<std::uint32_t> symbols;
  for (const GrammarSymbolId s : unrealizable.terminals) symbols.push_back(s.value());
  out.put_array<std::uint32_t>(symbols);
  put_strings(out, unrealizable.shadowed_by);
  symbols.clear();
  for (const GrammarSymbolId s : unrealizable.nonterminals) symbols.push_back(s.value());
  out.put_array<std::uint32_t>(symbols);
  std::vector<std::uint64_t> rules(unrealizable.rules.begin(), unrealizable.rules.end());
  out.put_array<std::uint64_t>(rules);

  const CfgNormalization& normalization = grammar.normalization_;
  std::vector<std::uint8_t> kinds;
  rules.clear();
  for (const UnboundedReductions::Loop& loop : normalization.found.loops) {
    kinds.push_back(static_cast<std::uint8_t>(loop.kind));
    rules.push_back(loop.rule);
  }
  out.put_array<std::uint8_t>(kinds);
  out.put_array<std::uint64_t>(rules);
  symbols.clear();
  for (const GrammarSymbolId s : normalization.found.nonterminals) symbols.push_back(s.value());
  out.put_array<std::uint32_t>(symbols);
  out.put_string(normalization.found_text);
  out.put<std::uint8_t>(normalization.normalized ? 1 : 0);
  out.put_string(normalization.refusal);
  put_strings(out, normalization.rewritten_nonterminals);
  put_strings(out, normalization.added_nonterminals);
  put_strings(out, normalization.merged);
  out.put<std::uint64_t>(normalization.rules_before);
  out.put<std::uint64_t>(normalization.rules_after);

  const LalrAutomaton& lalr = grammar.lalr_;
  write_lr_grammar(lalr.grammar_, out);
  write_lr0(lalr.lr0_, out);
  write_lookaheads(lalr.lookaheads_, lalr.grammar_.num_terminals(), out);
  write_table(lalr.glr_table_, out);
  write_table(lalr.lark_table_, out);

  grammar.fork_futures_.write(out);
  out.put(kImageEndTag);
}

std::shared_ptr<const CompiledGrammar> CompiledGrammarImage::read(BinaryReader& in,
                                                                  GrammarModel model,
                                                                  const ParseOptions& options) {
  if (in.get<std::uint32_t>("compiled grammar tag") != kImageTag)
    in.fail("expected a compiled grammar image");
  if (const auto version = in.get<std::uint32_t>("compiled grammar version");
      version != kImageVersion)
    in.fail(fmt::format("compiled grammar image version {}, this build reads version {}", version,
                        kImageVersion));
  const auto terminals = in.get<std::uint64_t>("grammar terminal count");
  const auto symbols = in.get<std::uint64_t>("grammar symbol count");
  const auto model_rules = in.get<std::uint64_t>("grammar rule count");
  if (terminals != model.num_terminals() || symbols != model.num_symbols() ||
      model_rules != model.rules().size())
    in.fail(
        fmt::format("the image was compiled from a grammar of {} terminals, {} symbols and {} "
                    "rules; this one has {}, {} and {}",
                    terminals, symbols, model_rules, model.num_terminals(), model.num_symbols(),
                    model.rules().size()));
  if (in.get<std::uint8_t>("conflict policy") != static_cast<std::uint8_t>(options.policy) ||
      in.get<std::uint8_t>("post-lexer") != static_cast<std::uint8_t>(options.postlex) ||
      in.get_string("start symbol") != options.start)
    in.fail("the image was compiled under other options (policy, post-lexer or start symbol)");
  std::vector<SymbolId> skippable = CompiledGrammar::resolve_skippable(model, options);
  if (in.get_array<SymbolId>("skippable terminals") != skippable)
    in.fail("the image was compiled with other skippable terminals");
  std::optional<IndenterSpec> indenter = CompiledGrammar::resolve_post_lexer(model, options);

  lexer::LexerDfa dfa = lexer::LexerDfa::read(in, lexer::terminal_specs(model));

  UnrealizableRules unrealizable;
  {
    const auto ascending_in = [&](const std::vector<std::uint32_t>& values, std::uint64_t low,
                                  std::uint64_t high, const char* field) {
      for (std::size_t i = 0; i < values.size(); ++i)
        if (values[i] < low || values[i] >= high || (i > 0 && values[i] <= values[i - 1]))
          in.fail(fmt::format("{}: not ascending ids in [{}, {})", field, low, high));
    };
    const auto unrealizable_terminals = in.get_array<std::uint32_t>("unrealizable terminals");
    ascending_in(unrealizable_terminals, 0, terminals, "unrealizable terminals");
    for (const std::uint32_t t : unrealizable_terminals)
      unrealizable.terminals.push_back(GrammarSymbolId{t});
    unrealizable.shadowed_by = get_strings(in, "unrealizable terminals' shadowing");
    if (unrealizable.shadowed_by.size() != unrealizable.terminals.size())
      in.fail("unrealizable terminals and their shadowing differ in number");
    const auto nonterminals = in.get_array<std::uint32_t>("unrealizable nonterminals");
    ascending_in(nonterminals, terminals, symbols, "unrealizable nonterminals");
    for (const std::uint32_t n : nonterminals)
      unrealizable.nonterminals.push_back(GrammarSymbolId{n});
    const auto rules = in.get_array<std::uint64_t>("unrealizable rules");
    for (std::size_t i = 0; i < rules.size(); ++i)
      if (rules[i] >= model_rules || (i > 0 && rules[i] <= rules[i - 1]))
        in.fail("unrealizable rules: not ascending rule indices of the grammar");
    unrealizable.rules.assign(rules.begin(), rules.end());
  }

  CfgNormalization normalization;
  {
    const auto kinds = in.get_array<std::uint8_t>("unbounded reduction kinds");
    const auto rules = in.get_array<std::uint64_t>("unbounded reduction rules");
    if (kinds.size() != rules.size())
      in.fail("unbounded reductions: kinds and rules differ in number");
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      if (kinds[i] > static_cast<std::uint8_t>(UnboundedReductions::Kind::kHiddenLeftRecursion) ||
          rules[i] >= model_rules)
        in.fail(
            fmt::format("unbounded reduction {} has kind {} and rule {}", i, kinds[i], rules[i]));
      normalization.found.loops.push_back(
          {static_cast<UnboundedReductions::Kind>(kinds[i]), static_cast<std::size_t>(rules[i])});
    }
    for (const std::uint32_t n : in.get_array<std::uint32_t>("unbounded reduction nonterminals")) {
      if (n < terminals || n >= symbols)
        in.fail(fmt::format("unbounded reduction nonterminal {} is not a nonterminal", n));
      normalization.found.nonterminals.push_back(GrammarSymbolId{n});
    }
    normalization.found_text = in.get_string("normalization report");
    const auto normalized = in.get<std::uint8_t>("normalization flag");
    if (normalized > 1) in.fail("normalization flag other than 0 or 1");
    normalization.normalized = normalized != 0;
    normalization.refusal = in.get_string("normalization refusal");
    normalization.rewritten_nonterminals = get_strings(in, "normalized nonterminals");
    normalization.added_nonterminals = get_strings(in, "added nonterminals");
    normalization.merged = get_strings(in, "merged unit cycles");
    normalization.rules_before = in.get<std::uint64_t>("rules before normalization");
    normalization.rules_after = in.get<std::uint64_t>("rules after normalization");
    if (normalization.rules_before + unrealizable.rules.size() != model_rules)
      in.fail("the rule counts before normalization do not match the grammar");
  }

  LrGrammar lr_grammar = read_lr_grammar(in, model);
  if (lr_grammar.num_rules() != normalization.rules_after + 1)
    in.fail(fmt::format("the LR grammar has {} rules, the normalization left {}",
                        lr_grammar.num_rules(), normalization.rules_after));
  for (const SymbolId terminal : skippable)
    if (terminal >= lr_grammar.end_of_input())
      in.fail(fmt::format("skippable terminal {} is not an LR terminal", terminal));
  Lr0Automaton lr0 = read_lr0(in, lr_grammar);
  LalrLookaheads lookaheads = read_lookaheads(in, lr_grammar, lr0);
  LrTable glr_table = read_table(in, ConflictPolicy::kKeepAll, lr_grammar, lr0, lookaheads);
  LrTable lark_table = read_table(in, ConflictPolicy::kLark, lr_grammar, lr0, lookaheads);
  lexer::ForkFutures fork_futures = lexer::ForkFutures::read(in, dfa);
  if (in.get<std::uint32_t>("compiled grammar end tag") != kImageEndTag)
    in.fail("the compiled grammar image does not end where its sections do");

  LalrAutomaton lalr(std::move(lr_grammar), std::move(lr0), std::move(lookaheads),
                     std::move(glr_table), std::move(lark_table));
  auto* compiled = new CompiledGrammar(std::move(model), std::move(dfa), std::move(lalr), options,
                                       std::move(skippable), std::move(unrealizable),
                                       std::move(normalization), std::move(fork_futures));
  compiled->indenter_ = std::move(indenter);
  return std::shared_ptr<const CompiledGrammar>(compiled);
}

void write_compiled_grammar(const CompiledGrammar& grammar, BinaryWriter& out) {
  CompiledGrammarImage::write(grammar, out);
}

std::shared_ptr<const CompiledGrammar> read_compiled_grammar(BinaryReader& in, GrammarModel model,
                                                             const ParseOptions& options) {
  return CompiledGrammarImage::read(in, std::move(model), options);
}

}  // namespace glrmask::glr
