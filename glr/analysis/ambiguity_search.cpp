#include "glr/analysis/ambiguity_search.h"

#include <algorithm>
#include <map>

namespace glrmask::glr {

TreeDivergence first_divergence(const TreeRef& first, const TreeRef& second) {
  TreeRef a = first;
  TreeRef b = second;
  while (true) {
    if (a->rule != b->rule || a->children.size() != b->children.size()) return {a, b};
    std::size_t differing = a->children.size();
    for (std::size_t k = 0; k < a->children.size(); ++k) {
      const DerivationTree& x = *a->children[k];
      const DerivationTree& y = *b->children[k];
      if (x.start != y.start || x.end != y.end) return {a, b};
      if (differing == a->children.size() && !same_tree(x, y)) differing = k;
    }
    if (differing == a->children.size()) return {a, b};  // equal trees: not called that way
    a = a->children[differing];
    b = b->children[differing];
  }
}

AmbiguityReport find_ambiguities(const LalrAutomaton& automaton,
                                 const CounterexampleOptions& options) {
  AmbiguityReport report;
  const ConflictReport conflicts = report_conflicts(automaton);
  CounterexampleFinder finder(automaton);
  for (const Conflict& conflict : conflicts.conflicts) {
    ++report.cells;
    ConflictVerdict verdict = finder.classify(conflict, options);
    switch (verdict.kind) {
      case ConflictClass::kNeedsLookahead:
        ++report.lookahead_cells;
        continue;
      case ConflictClass::kUndecided:
        ++report.undecided_cells;
        continue;
      case ConflictClass::kAmbiguous:
        break;
    }
    AmbiguousSentence sentence;
    sentence.state = conflict.state;
    sentence.lookahead = conflict.lookahead;
    const TreeDivergence divergence = first_divergence(verdict.first->tree, verdict.second->tree);
    sentence.nonterminal = divergence.first->symbol;
    sentence.start = divergence.first->start;
    sentence.end = divergence.first->end;
    sentence.first = divergence.first;
    sentence.second = divergence.second;
    sentence.length = verdict.first->sentence.size();
    sentence.verdict = std::move(verdict);
    report.sentences.push_back(std::move(sentence));
  }
  std::stable_sort(
      report.sentences.begin(), report.sentences.end(),
      [](const AmbiguousSentence& a, const AmbiguousSentence& b) { return a.length < b.length; });
  std::map<SymbolId, const AmbiguousSentence*> best;
  for (const AmbiguousSentence& sentence : report.sentences) {
    auto [it, added] = best.emplace(sentence.nonterminal, &sentence);
    if (!added && sentence.end - sentence.start < it->second->end - it->second->start)
      it->second = &sentence;
  }
  for (const auto& [nonterminal, sentence] : best) report.by_nonterminal.push_back(*sentence);
  const LrGrammar& grammar = automaton.grammar();
  std::stable_sort(report.by_nonterminal.begin(), report.by_nonterminal.end(),
                   [&](const AmbiguousSentence& a, const AmbiguousSentence& b) {
                     const std::uint32_t la = a.end - a.start;
                     const std::uint32_t lb = b.end - b.start;
                     if (la != lb) return la < lb;
                     return grammar.name(a.nonterminal) < grammar.name(b.nonterminal);
                   });
  return report;
}

}  // namespace glrmask::glr
