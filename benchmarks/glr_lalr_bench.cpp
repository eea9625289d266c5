// LALR(1) construction, the conflict report and action lookups on generated grammars of growing
// size: an expression language with N binary-operator precedence levels (conflict-free, one
// nonterminal per level) plus statements, and the same operators without precedence (one
// shift/reduce fork per operator pair: the worst case for the report).
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "glr/analysis/conflict_report.h"
#include "glr/cfg.h"
#include "glr/lalr_automaton.h"

namespace glrmask::glr {
namespace {

class CfgWriter {
 public:
  SymbolId terminal(const std::string& name) { return add(name, terminals_); }
  SymbolId nonterminal(const std::string& name) { return add(name, nonterminals_); }
  void rule(const std::string& lhs, std::vector<std::string> rhs) { rules_.push_back({lhs, rhs}); }

  Cfg build(const std::string& start) const {
    Cfg cfg;
    cfg.num_terminals = static_cast<std::uint32_t>(terminals_.size());
    cfg.symbol_names = terminals_;
    cfg.symbol_names.insert(cfg.symbol_names.end(), nonterminals_.begin(), nonterminals_.end());
    auto id = [&](const std::string& name) -> GrammarSymbolId {
      for (std::size_t i = 0; i < cfg.symbol_names.size(); ++i) {
        if (cfg.symbol_names[i] == name) return GrammarSymbolId{static_cast<std::uint32_t>(i)};
      }
      return kNoGrammarSymbol;
    };
    for (const auto& [lhs, rhs] : rules_) {
      Cfg::Rule rule{id(lhs), {}, 0, ""};
      for (const std::string& symbol : rhs) rule.rhs.push_back(id(symbol));
      cfg.rules.push_back(std::move(rule));
    }
    cfg.start = id(start);
    return cfg;
  }

 private:
  static SymbolId add(const std::string& name, std::vector<std::string>& names) {
    names.push_back(name);
    return static_cast<SymbolId>(names.size() - 1);
  }
  std::vector<std::string> terminals_;
  std::vector<std::string> nonterminals_;
  std::vector<std::pair<std::string, std::vector<std::string>>> rules_;
};

// program: program stmt | ; stmt: "if" e "then" stmt ["else" stmt] | ID "=" e ";" | "{" program "}"
// e0: e0 op0 e1 | e1; ...; e_{N}: "(" e0 ")" | ID | NUM   (or, ambiguous: e: e op_i e | ...)
Cfg expression_language(int levels, bool ambiguous) {
  CfgWriter w;
  for (const char* t : {"if", "then", "else", "ID", "NUM", "=", ";", "{", "}", "(", ")"}) {
    w.terminal(t);
  }
  for (int i = 0; i < levels; ++i) w.terminal("op" + std::to_string(i));
  w.nonterminal("program");
  w.nonterminal("stmt");
  const int expression_levels = ambiguous ? 1 : levels + 1;
  for (int i = 0; i < expression_levels; ++i) w.nonterminal("e" + std::to_string(i));
  w.rule("program", {"program", "stmt"});
  w.rule("program", {});
  w.rule("stmt", {"if", "e0", "then", "stmt"});
  w.rule("stmt", {"if", "e0", "then", "stmt", "else", "stmt"});
  w.rule("stmt", {"ID", "=", "e0", ";"});
  w.rule("stmt", {"{", "program", "}"});
  const std::string atom = "e" + std::to_string(expression_levels - 1);
  for (int i = 0; i < levels; ++i) {
    const std::string op = "op" + std::to_string(i);
    if (ambiguous) {
      w.rule("e0", {"e0", op, "e0"});
    } else {
      const std::string here = "e" + std::to_string(i);
      const std::string next = "e" + std::to_string(i + 1);
      w.rule(here, {here, op, next});
      w.rule(here, {next});
    }
  }
  w.rule(atom, {"(", "e0", ")"});
  w.rule(atom, {"ID"});
  w.rule(atom, {"NUM"});
  return w.build("program");
}

void BM_BuildLalr(benchmark::State& state) {
  const Cfg cfg = expression_language(static_cast<int>(state.range(0)), state.range(1) != 0);
  std::uint32_t states = 0;
  for (auto _ : state) {
    const LalrAutomaton automaton(cfg);
    states = automaton.lr0().num_states();
    benchmark::DoNotOptimize(states);
  }
  state.counters["rules"] = static_cast<double>(cfg.rules.size());
  state.counters["states"] = states;
}
BENCHMARK(BM_BuildLalr)
    ->ArgsProduct({{8, 64, 256}, {0, 1}})
    ->ArgNames({"levels", "ambiguous"})
    ->Unit(benchmark::kMicrosecond);

void BM_ConflictReport(benchmark::State& state) {
  const LalrAutomaton automaton(expression_language(static_cast<int>(state.range(0)), true));
  std::uint32_t conflicts = 0;
  for (auto _ : state) {
    const ConflictReport report = report_conflicts(automaton);
    conflicts = report.stats.conflict_cells;
    benchmark::DoNotOptimize(conflicts);
  }
  state.counters["conflicts"] = conflicts;
}
BENCHMARK(BM_ConflictReport)->Arg(8)->Arg(32)->Unit(benchmark::kMillisecond);

// The GLR parser's inner step: the action list of a (state, terminal) cell.
void BM_ActionLookup(benchmark::State& state) {
  const LalrAutomaton automaton(expression_language(static_cast<int>(state.range(0)), false));
  const LrTable& table = automaton.table();
  std::mt19937 random(42);
  std::vector<std::pair<StateId, SymbolId>> queries(4096);
  for (auto& [s, t] : queries) {
    s = static_cast<StateId>(random() % table.num_states());
    t = static_cast<SymbolId>(random() % table.num_terminals());
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [s, t] = queries[i++ & 4095];
    benchmark::DoNotOptimize(table.actions(s, t).size());
  }
}
BENCHMARK(BM_ActionLookup)->Arg(8)->Arg(256);

}  // namespace
}  // namespace glrmask::glr
