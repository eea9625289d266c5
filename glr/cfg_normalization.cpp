#include "glr/cfg_normalization.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "glr/cfg_emptiness.h"
#include "glr/strong_components.h"

namespace glrmask::glr {
namespace {

// Writes the rules of the region R and of the N' copies they need (see the header).
class RegionRewriter {
 public:
  RegionRewriter(const Cfg& cfg, const UnboundedReductions& found,
                 const NormalizationLimits& limits)
      : cfg_(cfg),
        emptiness_(cfg),
        limits_(limits),
        in_region_(cfg.num_symbols(), 0),
        rules_of_(cfg.num_symbols()),
        prime_(cfg.num_symbols(), kNoGrammarSymbol),
        names_(cfg.symbol_names) {
    for (const GrammarSymbolId s : found.nonterminals) in_region_[s.value()] = 1;
    for (std::size_t r = 0; r < cfg.rules.size(); ++r)
      rules_of_[cfg.rules[r].lhs.value()].push_back(r);
  }

  bool in_region(GrammarSymbolId symbol) const { return in_region_[symbol.value()] != 0; }

  // The rules that replace every rule of R; empty with refusal() set when a limit is exceeded.
  std::vector<Cfg::Rule> rewrite() {
    for (std::uint32_t index = cfg_.num_terminals; index < cfg_.num_symbols(); ++index) {
      const GrammarSymbolId a{index};
      if (!in_region(a)) continue;
      const std::string& origin = cfg_.rules[rules_of_[index].front()].origin;
      GrammarSymbolId target = a;
      if (emptiness_.nullable[index] != 0) {
        // A -> A' | ε; the variants of A's rules are A''s.
        target = nonempty_version(a);
        if (target != kNoGrammarSymbol)
          rules_.push_back({.lhs = a, .rhs = {target}, .origin = origin});
        rules_.push_back({.lhs = a, .rhs = {}, .origin = origin});
        if (target == kNoGrammarSymbol) continue;  // A derives only the empty string
      }
      for (const std::size_t r : rules_of_[index])
        if (emptiness_.rule_productive(cfg_.rules[r])) add_variants(cfg_.rules[r], target);
      if (!refusal_.empty()) return {};
    }
    // Copies of symbols outside R, created on demand while writing the rules above and here.
    while (!pending_.empty()) {
      const GrammarSymbolId n = pending_.back();
      pending_.pop_back();
      for (const std::size_t r : rules_of_[n.value()])
        if (emptiness_.rule_productive(cfg_.rules[r])) add_first_nonempty(cfg_.rules[r]);
    }
    return std::move(rules_);
  }

  const std::string& refusal() const { return refusal_; }
  std::vector<std::string> symbol_names() const { return names_; }

 private:
  // The symbol deriving the non-empty strings of `symbol`: itself when it is not nullable,
  // kNoGrammarSymbol when it derives only the empty string, else its copy N' (created on first
  // use).
  GrammarSymbolId nonempty_version(GrammarSymbolId symbol) {
    const std::uint32_t index = symbol.value();
    if (emptiness_.nullable[index] == 0) return symbol;
    if (emptiness_.nonempty[index] == 0) return kNoGrammarSymbol;
    if (prime_[index] == kNoGrammarSymbol) {
      prime_[index] = GrammarSymbolId{static_cast<std::uint32_t>(names_.size())};
      names_.push_back(names_[index] + "'");
      if (!in_region(symbol)) pending_.push_back(symbol);
    }
    return prime_[index];
  }

  // Every variant of `rule` with each nullable symbol either replaced by its non-empty version
  // or left out, except the empty one, as rules of `lhs`.
  void add_variants(const Cfg::Rule& rule, GrammarSymbolId lhs) {
    std::vector<GrammarSymbolId> kept;  // per position: the symbol when present
    std::vector<std::size_t> optional;  // positions that may be left out and have a version
    for (std::size_t i = 0; i < rule.rhs.size(); ++i) {
      const GrammarSymbolId version = nonempty_version(rule.rhs[i]);
      kept.push_back(version);
      if (version != rule.rhs[i] && version != kNoGrammarSymbol) optional.push_back(i);
    }
    if (optional.size() >= 63 ||
        (std::size_t{1} << optional.size()) > limits_.max_variants_per_rule) {
      refusal_ = fmt::format(
          "rule {} has {} nullable symbols, so {} variants; at most {} are allowed per rule",
          cfg_rule_text(cfg_, rule), optional.size(),
          optional.size() >= 63 ? std::string("2^") + std::to_string(optional.size())
                                : std::to_string(std::size_t{1} << optional.size()),
          limits_.max_variants_per_rule);
      return;
    }
    for (std::size_t mask = 0; mask < (std::size_t{1} << optional.size()); ++mask) {
      Cfg::Rule variant{.lhs = lhs, .rhs = {}, .priority = rule.priority, .origin = rule.origin};
      std::size_t bit = 0;
      for (std::size_t i = 0; i < rule.rhs.size(); ++i) {
        if (kept[i] == kNoGrammarSymbol) continue;  // derives only ε: always left out
        const bool is_optional = bit < optional.size() && optional[bit] == i;
        if (is_optional && (mask >> bit++ & 1) == 0) continue;
        variant.rhs.push_back(kept[i]);
      }
      if (!variant.rhs.empty()) rules_.push_back(std::move(variant));
    }
  }

  // For a rule N -> Y1..Ym of a nullable N outside R: the rules of N' whose first symbol is the
  // first one that is not empty.
  void add_first_nonempty(const Cfg::Rule& rule) {
    const GrammarSymbolId lhs = prime_[rule.lhs.value()];
    for (std::size_t j = 0; j < rule.rhs.size(); ++j) {
      const GrammarSymbolId version = nonempty_version(rule.rhs[j]);
      if (version != kNoGrammarSymbol) {
        Cfg::Rule copy{
            .lhs = lhs, .rhs = {version}, .priority = rule.priority, .origin = rule.origin};
        copy.rhs.insert(copy.rhs.end(), rule.rhs.begin() + static_cast<std::ptrdiff_t>(j) + 1,
                        rule.rhs.end());
        rules_.push_back(std::move(copy));
      }
      if (emptiness_.nullable[rule.rhs[j].value()] == 0) break;  // cannot be left out
    }
  }

  const Cfg& cfg_;
  const CfgEmptiness emptiness_;
  const NormalizationLimits& limits_;
  std::vector<char> in_region_;
  std::vector<std::vector<std::size_t>> rules_of_;
  std::vector<GrammarSymbolId> prime_;  // per symbol of cfg_
  std::vector<std::string> names_;
  std::vector<Cfg::Rule> rules_;
  std::vector<GrammarSymbolId> pending_;
  std::string refusal_;
};

// Merges every cycle of unit rules A -> B into one nonterminal (they derive the same strings):
// the start symbol if it is in the cycle, else the one with the smallest id. Returns one line per
// cycle merged. Marks the rules it changes in `touched`.
std::vector<std::string> merge_unit_cycles(Cfg& cfg, std::vector<char>& touched) {
  // Only rewritten rules can be on such a cycle (outside the region there is no derivation
  // cycle), so rules as written that lie on one, unreachable or unproductive, stay as they are.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::size_t r = 0; r < cfg.rules.size(); ++r) {
    const Cfg::Rule& rule = cfg.rules[r];
    if (touched[r] != 0 && rule.rhs.size() == 1 && !cfg.is_terminal(rule.rhs[0]))
      pairs.emplace_back(rule.lhs.value(), rule.rhs[0].value());
  }
  const std::vector<std::uint32_t> component =
      strong_components(Relation::from_pairs(cfg.num_symbols(), std::move(pairs)));
  std::map<std::uint32_t, std::vector<GrammarSymbolId>> members;
  for (std::uint32_t s = cfg.num_terminals; s < cfg.num_symbols(); ++s)
    members[component[s]].push_back(GrammarSymbolId{s});
  std::vector<GrammarSymbolId> merged_into;  // per symbol: itself unless merged
  for (const GrammarSymbolId s : id_range<GrammarSymbolId>(cfg.num_symbols()))
    merged_into.push_back(s);
  std::vector<std::string> lines;
  for (const auto& [id, symbols] : members) {
    if (symbols.size() < 2) continue;
    const bool has_start = std::find(symbols.begin(), symbols.end(), cfg.start) != symbols.end();
    const GrammarSymbolId into = has_start ? cfg.start : symbols.front();
    std::string line = cfg.name(into);
    for (const GrammarSymbolId s : symbols) {
      merged_into[s.value()] = into;
      if (s != into) line += " = " + cfg.name(s);
    }
    lines.push_back(std::move(line));
  }
  if (lines.empty()) return lines;
  for (std::size_t r = 0; r < cfg.rules.size(); ++r) {
    Cfg::Rule& rule = cfg.rules[r];
    const auto rename = [&](GrammarSymbolId& s) {
      if (merged_into[s.value()] == s) return;
      s = merged_into[s.value()];
      touched[r] = 1;
    };
    rename(rule.lhs);
    for (GrammarSymbolId& s : rule.rhs) rename(s);
  }
  return lines;
}

// Drops the unit rules A -> A the merge leaves and the rules the rewrite duplicated (a touched
// rule equal to an earlier one); untouched rules stay as written.
void drop_redundant_rules(Cfg& cfg, const std::vector<char>& touched) {
  std::map<std::pair<GrammarSymbolId, std::vector<GrammarSymbolId>>, std::size_t> seen;
  std::vector<Cfg::Rule> kept;
  for (std::size_t r = 0; r < cfg.rules.size(); ++r) {
    Cfg::Rule& rule = cfg.rules[r];
    const bool first = seen.emplace(std::pair(rule.lhs, rule.rhs), r).second;
    const bool self_unit = rule.rhs.size() == 1 && rule.rhs[0] == rule.lhs;
    if (touched[r] != 0 && (!first || self_unit)) continue;
    kept.push_back(std::move(rule));
  }
  cfg.rules = std::move(kept);
}

// Drops the names of symbols that no rule mentions any more if they were added by the rewrite
// (copies that the merge replaced); symbols of the grammar as written keep their ids.
void drop_unused_added_symbols(Cfg& cfg, std::uint32_t original_symbols) {
  std::vector<char> used(cfg.num_symbols(), 0);
  for (const Cfg::Rule& rule : cfg.rules) {
    used[rule.lhs.value()] = 1;
    for (const GrammarSymbolId s : rule.rhs) used[s.value()] = 1;
  }
  std::vector<GrammarSymbolId> renumbered(cfg.num_symbols(), kNoGrammarSymbol);
  std::vector<std::string> names(cfg.symbol_names.begin(),
                                 cfg.symbol_names.begin() + original_symbols);
  for (std::uint32_t s = 0; s < cfg.num_symbols(); ++s) {
    if (s < original_symbols) {
      renumbered[s] = GrammarSymbolId{s};
    } else if (used[s] != 0) {
      renumbered[s] = GrammarSymbolId{static_cast<std::uint32_t>(names.size())};
      names.push_back(cfg.symbol_names[s]);
    }
  }
  for (Cfg::Rule& rule : cfg.rules) {
    rule.lhs = renumbered[rule.lhs.value()];
    for (GrammarSymbolId& s : rule.rhs) s = renumbered[s.value()];
  }
  cfg.symbol_names = std::move(names);
}

}  // namespace

CfgNormalization normalize_unbounded_reductions(Cfg& cfg, const NormalizationLimits& limits) {
  CfgNormalization report;
  report.found = find_unbounded_reductions(cfg);
  report.rules_before = report.rules_after = cfg.rules.size();
  if (report.found.empty()) return report;
  report.found_text = report.found.describe(cfg);
  for (const GrammarSymbolId s : report.found.nonterminals)
    report.rewritten_nonterminals.push_back(cfg.name(s));

  RegionRewriter rewriter(cfg, report.found, limits);
  std::vector<Cfg::Rule> region_rules = rewriter.rewrite();
  if (!rewriter.refusal().empty()) {
    report.refusal = rewriter.refusal();
    return report;
  }
  Cfg out;
  out.symbol_names = rewriter.symbol_names();
  out.num_terminals = cfg.num_terminals;
  out.start = cfg.start;
  for (const Cfg::Rule& rule : cfg.rules)
    if (!rewriter.in_region(rule.lhs)) out.rules.push_back(rule);
  std::vector<char> touched(out.rules.size(), 0);
  for (Cfg::Rule& rule : region_rules) out.rules.push_back(std::move(rule));
  touched.resize(out.rules.size(), 1);
  report.merged = merge_unit_cycles(out, touched);
  drop_redundant_rules(out, touched);
  drop_unused_added_symbols(out, cfg.num_symbols());

  if (out.rules.size() > cfg.rules.size() + limits.max_added_rules) {
    report.refusal = fmt::format(
        "the normalized grammar would have {} rules, {} more than written; at most {} more are "
        "allowed",
        out.rules.size(), out.rules.size() - cfg.rules.size(), limits.max_added_rules);
    return report;
  }
  // The construction removes every loop (header); checking it keeps a mistake from reaching the
  // wfa as an endless construction.
  const UnboundedReductions left = find_unbounded_reductions(out);
  if (!left.empty()) {
    report.refusal = "the rewritten grammar still has loops:\n" + left.describe(out);
    if (report.refusal.back() == '\n') report.refusal.pop_back();
    return report;
  }
  for (std::uint32_t s = cfg.num_symbols(); s < out.num_symbols(); ++s)
    report.added_nonterminals.push_back(out.symbol_names[s]);
  report.normalized = true;
  report.rules_after = out.rules.size();
  cfg = std::move(out);
  return report;
}

std::string CfgNormalization::describe() const {
  if (found.empty()) return "none\n";
  std::string text;
  if (normalized) {
    text = fmt::format(
        "rewrote the rules of {} ({} rules before, {} after) so that reductions always end:\n",
        fmt::join(rewritten_nonterminals, ", "), rules_before, rules_after);
  } else {
    text = fmt::format("not normalized ({}); these rules can make reductions that never end:\n",
                       refusal);
  }
  text += found_text;
  if (!added_nonterminals.empty())
    text += fmt::format("  added {} (the non-empty strings of {})\n",
                        fmt::join(added_nonterminals, ", "),
                        added_nonterminals.size() == 1 ? "its original" : "their originals");
  for (const std::string& line : merged) text += fmt::format("  merged the unit cycle {}\n", line);
  return text;
}

}  // namespace glrmask::glr
