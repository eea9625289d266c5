#include "lib/gbnf/gbnf_lowering.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include "lib/core/unicode_utf8.h"
#include "lib/grammar/grammar_builder.h"
#include "lib/grammar/grammar_error.h"

namespace glrmask::gbnf {
namespace {

// A lexed part larger than this many items (code points of literals, classes, after expanding
// bounded repetitions) stays a rule: its pattern would cost the lexer more than the rule costs the
// parser.
constexpr std::uint64_t kMaxTerminalItems = 20'000;
// A grammar part expanding to more items than this is refused (llama.cpp refuses from 2,000
// repetitions; `(((x{0,99}){0,99}){0,99})...` six deep is its test of the limit).
constexpr std::uint64_t kMaxExpandedItems = std::uint64_t{1} << 24;

thread_local std::uint32_t t_last_rounds = 0;

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > kMaxExpandedItems * 4 - b ? kMaxExpandedItems * 4 : a + b;
}
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kMaxExpandedItems * 4 / b ? kMaxExpandedItems * 4 : a * b;
}

// What the lowering needs to know about every node, computed once.
struct NodeFacts {
  bool regular = false;     // no reference leads to a recursive rule
  bool nullable = false;    // derives the empty text
  bool empty_only = false;  // derives the empty text and nothing else
  std::uint64_t items = 0;  // size when expanded (saturating)
};

class Analysis {
 public:
  explicit Analysis(const Grammar& grammar) : grammar_(grammar) {
    find_recursive_rules();
    facts_.resize(grammar.nodes.size());
    done_.assign(grammar.nodes.size(), 0);
    for (const Rule& rule : grammar.rules) compute(rule.body);
  }

  const NodeFacts& facts(NodeId node) const { return facts_[node]; }
  bool lexable(NodeId node) const {
    return facts_[node].regular && facts_[node].items <= kMaxTerminalItems;
  }

 private:
  // Tarjan's strongly connected components over "rule a's body references rule b".
  void find_recursive_rules() {
    const std::size_t n = grammar_.rules.size();
    std::vector<std::vector<std::uint32_t>> edges(n);
    for (std::size_t r = 0; r < n; ++r) collect_references(grammar_.rules[r].body, edges[r]);
    recursive_.assign(n, 0);
    std::vector<std::int64_t> index(n, -1);
    std::vector<std::int64_t> low(n, 0);
    std::vector<std::uint8_t> on_stack(n, 0);
    std::vector<std::uint32_t> stack;
    std::int64_t counter = 0;
    // Iterative, so that a long chain of rules cannot exhaust the call stack.
    struct Frame {
      std::uint32_t rule;
      std::size_t next_edge;
    };
    for (std::uint32_t root = 0; root < n; ++root) {
      if (index[root] >= 0) continue;
      std::vector<Frame> frames{{root, 0}};
      index[root] = low[root] = counter++;
      stack.push_back(root);
      on_stack[root] = 1;
      while (!frames.empty()) {
        Frame& frame = frames.back();
        const std::uint32_t v = frame.rule;
        if (frame.next_edge < edges[v].size()) {
          const std::uint32_t w = edges[v][frame.next_edge++];
          if (w == v) recursive_[v] = 1;
          if (index[w] < 0) {
            index[w] = low[w] = counter++;
            stack.push_back(w);
            on_stack[w] = 1;
            frames.push_back({w, 0});
          } else if (on_stack[w]) {
            low[v] = std::min(low[v], index[w]);
          }
          continue;
        }
        if (low[v] == index[v]) {
          std::vector<std::uint32_t> component;
          std::uint32_t w = 0;
          do {
            w = stack.back();
            stack.pop_back();
            on_stack[w] = 0;
            component.push_back(w);
          } while (w != v);
          if (component.size() > 1)
            for (const std::uint32_t member : component) recursive_[member] = 1;
        }
        frames.pop_back();
        if (!frames.empty()) {
          const std::uint32_t parent = frames.back().rule;
          low[parent] = std::min(low[parent], low[v]);
        }
      }
    }
  }

  void collect_references(NodeId node, std::vector<std::uint32_t>& out) const {
    std::vector<NodeId> pending{node};
    while (!pending.empty()) {
      const Node& current = grammar_.nodes[pending.back()];
      pending.pop_back();
      if (current.kind == NodeKind::kRuleRef) out.push_back(current.rule);
      for (const NodeId child : current.children) pending.push_back(child);
    }
  }

  const NodeFacts& compute(NodeId id) {
    if (done_[id] == 2) return facts_[id];
    const Node& node = grammar_.nodes[id];
    NodeFacts facts;
    switch (node.kind) {
      case NodeKind::kLiteral:
        facts = {true, node.text.empty(), node.text.empty(),
                 std::max<std::uint64_t>(1, node.text.size())};
        break;
      case NodeKind::kCharClass:
        if (node.ranges.empty()) {
          throw GrammarError(SourceLocation{grammar_.file, node.line, node.column},
                             "the character class matches no character");
        }
        facts = {true, false, false, 1};
        break;
      case NodeKind::kSequence:
        facts = {true, true, true, 0};
        for (const NodeId child : node.children) {
          const NodeFacts& part = compute(child);
          facts.regular = facts.regular && part.regular;
          facts.nullable = facts.nullable && part.nullable;
          facts.empty_only = facts.empty_only && part.empty_only;
          facts.items = saturating_add(facts.items, part.items);
        }
        break;
      case NodeKind::kAlternation:
        facts = {true, false, true, 0};
        for (const NodeId child : node.children) {
          const NodeFacts& part = compute(child);
          facts.regular = facts.regular && part.regular;
          facts.nullable = facts.nullable || part.nullable;
          facts.empty_only = facts.empty_only && part.empty_only;
          facts.items = saturating_add(facts.items, part.items);
        }
        break;
      case NodeKind::kRepetition: {
        const NodeFacts& part = compute(node.children.front());
        const std::uint64_t copies = node.max_count == kUnbounded
                                         ? std::max<std::uint64_t>(1, node.min_count)
                                         : node.max_count;
        facts = {part.regular, node.min_count == 0 || part.nullable,
                 node.max_count == 0 || part.empty_only, saturating_mul(part.items, copies)};
        break;
      }
      case NodeKind::kToken:
        // A token is its own terminal, never part of a pattern.
        facts = {false, false, false, 1};
        break;
      case NodeKind::kRuleRef: {
        const Rule& rule = grammar_.rules[node.rule];
        if (recursive_[node.rule]) {
          // Its facts other than regularity are not needed to lower it as a rule; the nullable
          // and empty flags are read by the lowering from the rules it builds.
          facts = {false, false, false, 1};
          break;
        }
        facts = compute(rule.body);
        break;
      }
    }
    if (facts.items > kMaxExpandedItems) {
      throw GrammarError(SourceLocation{grammar_.file, node.line, node.column},
                         fmt::format("this part expands to more than {} items (repetitions "
                                     "inside repetitions multiply)",
                                     kMaxExpandedItems));
    }
    facts_[id] = facts;
    done_[id] = 2;
    return facts_[id];
  }

  const Grammar& grammar_;
  std::vector<std::uint8_t> recursive_;
  std::vector<NodeFacts> facts_;
  std::vector<std::uint8_t> done_;  // 2 once computed
};

// Python `re` text of one code point, escaped so that no character is special.
void append_code_point(std::string& out, char32_t c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
    out += static_cast<char>(c);
  } else if (c < 0x100) {
    out += fmt::format("\\x{:02x}", static_cast<std::uint32_t>(c));
  } else if (c < 0x10000) {
    out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(c));
  } else {
    out += fmt::format("\\U{:08x}", static_cast<std::uint32_t>(c));
  }
}

std::string class_pattern(const std::vector<CodePointRange>& ranges) {
  if (ranges.size() == 1 && ranges.front().first == ranges.front().last) {
    std::string out;
    append_code_point(out, ranges.front().first);
    return out;
  }
  std::string out = "[";
  for (const CodePointRange& range : ranges) {
    append_code_point(out, range.first);
    if (range.last != range.first) {
      out += '-';
      append_code_point(out, range.last);
    }
  }
  return out + "]";
}

std::string exactly_small(const std::string& item, std::uint32_t count) {
  return count == 1 ? item : fmt::format("{}{{{}}}", item, count);
}

// The lexer's regex dialect counts at most this many repetitions in one `{m,n}`.
constexpr std::uint32_t kMaxRegexCount = 1000;

// `item` (already safe to quantify) at least `min` and at most `max` times. Counts above
// kMaxRegexCount nest: x{m} is (x{1000}){m/1000} x{m%1000}, and x{0,k} is (x{0,1000}){0,k/1000}
// x{0,k%1000}, which takes every count up to k.
std::string repeated(const std::string& item, std::uint32_t min, std::uint32_t max) {
  if (min == 0 && max == kUnbounded) return item + "*";
  if (min == 1 && max == kUnbounded) return item + "+";
  if (min == 0 && max == 1) return item + "?";
  const auto exactly = [&](std::uint32_t count) -> std::string {
    if (count == 0) return "";
    if (count == 1) return item;
    if (count <= kMaxRegexCount) return fmt::format("{}{{{}}}", item, count);
    return fmt::format("(?:{}{{{}}}){{{}}}", item, kMaxRegexCount, count / kMaxRegexCount) +
           (count % kMaxRegexCount == 0 ? "" : exactly_small(item, count % kMaxRegexCount));
  };
  const auto at_most = [&](std::uint32_t count) -> std::string {
    if (count == 0) return "";
    if (count <= kMaxRegexCount) return fmt::format("{}{{0,{}}}", item, count);
    return fmt::format("(?:{}{{0,{}}}){{0,{}}}", item, kMaxRegexCount, count / kMaxRegexCount) +
           (count % kMaxRegexCount == 0 ? ""
                                        : fmt::format("{}{{0,{}}}", item, count % kMaxRegexCount));
  };
  if (max == kUnbounded) return exactly(min) + item + "*";
  return exactly(min) + at_most(max - min);
}

// The pattern of a regular node, in Python `re` syntax, always safe to concatenate or quantify
// (compound patterns come in a group).
class PatternWriter {
 public:
  PatternWriter(const Grammar& grammar, const Analysis& analysis)
      : grammar_(grammar), analysis_(analysis) {}

  const std::string& pattern(NodeId id) {
    if (const auto it = memo_.find(id); it != memo_.end()) return it->second;
    const Node& node = grammar_.nodes[id];
    std::string out;
    switch (node.kind) {
      case NodeKind::kLiteral:
        for (const char32_t c : node.text) append_code_point(out, c);
        if (node.text.size() > 1) out = "(?:" + out + ")";
        break;
      case NodeKind::kCharClass:
        out = class_pattern(node.ranges);
        break;
      case NodeKind::kSequence:
        out = "(?:";
        for (const NodeId child : node.children) out += pattern(child);
        out += ")";
        break;
      case NodeKind::kAlternation:
        out = "(?:";
        for (std::size_t i = 0; i < node.children.size(); ++i) {
          if (i > 0) out += '|';
          out += pattern(node.children[i]);
        }
        out += ")";
        break;
      case NodeKind::kRepetition: {
        const std::string& item = pattern(node.children.front());
        if (item.empty() || node.max_count == 0) break;
        out = repeated(item, node.min_count, node.max_count);
        out = "(?:" + out + ")";
        break;
      }
      case NodeKind::kRuleRef:
        out = pattern(grammar_.rules[node.rule].body);
        break;
      case NodeKind::kToken:
        break;  // not regular: the check below fails
    }
    GLRMASK_DCHECK(analysis_.facts(id).regular, "pattern of a non-regular node");
    return memo_.emplace(id, std::move(out)).first->second;
  }

 private:
  const Grammar& grammar_;
  const Analysis& analysis_;
  std::unordered_map<NodeId, std::string> memo_;
};

// A name Lark would accept for a rule: lower case, '_' for '-'.
std::string rule_symbol_name(std::string_view gbnf_name) {
  std::string out;
  for (const char c : gbnf_name)
    out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front()))) out = "r" + out;
  return out;
}

std::string upper(std::string_view text) {
  std::string out;
  for (const char c : text) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// One lowering under a fixed choice of split parts.
class Lowering {
 public:
  Lowering(const Grammar& grammar, const Analysis& analysis, PatternWriter& patterns,
           const std::vector<std::uint8_t>& split)
      : grammar_(grammar),
        analysis_(analysis),
        patterns_(patterns),
        split_(split),
        builder_(grammar.file) {}

  GrammarModel run(const std::string& start, std::map<std::string, std::vector<NodeId>>& origins) {
    std::optional<std::uint32_t> start_rule;
    for (std::uint32_t r = 0; r < grammar_.rules.size(); ++r)
      if (grammar_.rules[r].name == start) start_rule = r;
    if (!start_rule) {
      throw GrammarError(SourceLocation{grammar_.file, 1, 1},
                         fmt::format("the grammar has no rule '{}' to start from", start));
    }
    for (const Rule& rule : grammar_.rules) reserve_name(rule_symbol_name(rule.name));
    const std::string start_symbol = rule_nonterminal(*start_rule, false);
    while (!pending_rules_.empty()) {
      const std::uint32_t rule = pending_rules_.back();
      pending_rules_.pop_back();
      lower_rule(rule);
    }
    origins = std::move(origins_);
    return std::move(builder_).build(start_symbol);
  }

 private:
  SourceLocation where(NodeId id) const {
    const Node& node = grammar_.nodes[id];
    return SourceLocation{grammar_.file, node.line, node.column};
  }

  void reserve_name(const std::string& name) { used_names_.insert(name); }
  std::string fresh_name(const std::string& base) {
    std::string name = base;
    for (std::uint32_t n = 2; used_names_.contains(name); ++n) name = fmt::format("{}_{}", base, n);
    used_names_.insert(name);
    return name;
  }

  // The rule as a nonterminal. `split` when a reference lexed whole before was split: the body
  // is then lowered one level finer, else it would lower to the same terminal again.
  std::string rule_nonterminal(std::uint32_t rule, bool split) {
    if (const auto it = rule_names_.find(rule); it != rule_names_.end()) {
      // A rule reached both ways is lowered finer: also right for the other references.
      if (split && !split_rules_.contains(rule)) {
        split_rules_.insert(rule);
        if (lowered_rules_.contains(rule)) {
          throw internal_grammar_error(where(grammar_.rules[rule].body),
                                       "a rule was lowered before it was split");
        }
      }
      return it->second;
    }
    if (split) split_rules_.insert(rule);
    const Rule& source = grammar_.rules[rule];
    const std::string name = rule_symbol_name(source.name);
    // Two GBNF names may map to one symbol name (a-b, a_b): the second gets a suffix.
    const std::string symbol = rule_names_taken_.insert(name).second ? name : fresh_name(name);
    rule_names_.emplace(rule, symbol);
    builder_.add_nonterminal(
        Nonterminal{symbol, {}, false, SourceLocation{grammar_.file, source.line, source.column}});
    pending_rules_.push_back(rule);
    return symbol;
  }

  void lower_rule(std::uint32_t rule) {
    current_rule_ = rule;
    lowered_rules_.insert(rule);
    const Rule& source = grammar_.rules[rule];
    const std::string& lhs = rule_names_.at(rule);
    const bool split = split_rules_.contains(rule) || !analysis_.lexable(source.body);
    for (std::vector<std::string>& rhs : alternatives(source.body, split))
      builder_.add_rule(RuleSpec{lhs, std::move(rhs), 0, "", where(source.body)});
  }

  // The alternatives of `id` as right-hand sides: one per alternative of an alternation lowered
  // as rules, else one.
  std::vector<std::vector<std::string>> alternatives(NodeId id, bool force_split) {
    const Node& node = grammar_.nodes[id];
    std::vector<std::vector<std::string>> out;
    if (node.kind == NodeKind::kAlternation && (force_split || !lexed_whole(id))) {
      for (const NodeId child : node.children) out.push_back(symbols(child, false));
    } else {
      out.push_back(symbols(id, force_split));
    }
    return out;
  }

  bool lexed_whole(NodeId id) const { return analysis_.lexable(id) && split_[id] == 0; }

  // The symbols `id` lowers to inside a sequence.
  std::vector<std::string> symbols(NodeId id, bool force_split) {
    std::vector<std::string> out;
    append(id, force_split, out);
    return out;
  }

  void append(NodeId id, bool force_split, std::vector<std::string>& out) {
    const Node& node = grammar_.nodes[id];
    const NodeFacts& facts = analysis_.facts(id);
    if (!force_split && lexed_whole(id)) {
      if (facts.empty_only) return;
      // A class is one code point whatever is split: nothing to refine it into.
      const bool atomic = node.kind == NodeKind::kCharClass ||
                          (node.kind == NodeKind::kLiteral && node.text.size() == 1);
      append_terminal(patterns_.pattern(id), facts.nullable, id, atomic, out, name_hint(id));
      return;
    }
    switch (node.kind) {
      case NodeKind::kLiteral:
        for (const char32_t c : node.text) {
          std::string pattern;
          append_code_point(pattern, c);
          append_terminal(pattern, false, id, true, out);
        }
        return;
      case NodeKind::kCharClass:
        append_terminal(patterns_.pattern(id), false, id, true, out);
        return;
      case NodeKind::kSequence:
        append_sequence(id, out);
        return;
      case NodeKind::kAlternation: {
        const std::string name = generated_name("alt");
        builder_.add_nonterminal(Nonterminal{name, {}, true, where(id)});
        for (std::vector<std::string>& rhs : alternatives(id, true))
          builder_.add_rule(RuleSpec{name, std::move(rhs), 0, "", where(id)});
        out.push_back(name);
        return;
      }
      case NodeKind::kRepetition:
        append_repetition(id, out);
        return;
      case NodeKind::kRuleRef:
        out.push_back(rule_nonterminal(node.rule, analysis_.lexable(id)));
        return;
      case NodeKind::kToken:
        append_token(id, out);
        return;
    }
  }

  // A token terminal (Terminal::token), one per spelling. A negated token stands for "one token
  // other than t", which bytes cannot count; repeated without bound (`(!<t>)*`, `(!<t>)+`) it is
  // "text, or tokens other than t", which they can: one code point or the negated terminal per
  // repetition (code points rather than longer runs, so that nothing needs a munch cut).
  void append_token(NodeId id, std::vector<std::string>& out) {
    const Node& node = grammar_.nodes[id];
    if (node.token_negated && repeated_negation_ != id) {
      throw GrammarError(where(id),
                         fmt::format("!{} is exactly one token of any text, which a mask over "
                                     "bytes cannot count; glrmask takes a negated token only "
                                     "repeated, as (!{})* or (!{})+",
                                     node.token, node.token, node.token));
    }
    const std::string key = (node.token_negated ? "!" : "") + node.token;
    auto it = token_terminals_.find(key);
    if (it == token_terminals_.end()) {
      Terminal terminal;
      terminal.name = fresh_name(node.token_negated ? "NOT_TOKEN" : "TOKEN");
      terminal.token = node.token;
      terminal.token_negated = node.token_negated;
      terminal.anonymous = true;
      terminal.origin = where(id);
      builder_.add_terminal(terminal);
      it = token_terminals_.emplace(key, terminal.name).first;
    }
    if (!node.token_negated) {
      out.push_back(it->second);
      return;
    }
    const std::string other = it->second + "_or_text";
    if (!used_names_.contains(other)) {
      reserve_name(other);
      builder_.add_nonterminal(Nonterminal{other, {}, true, where(id)});
      std::vector<std::string> any_code_point;
      append_terminal(class_pattern({CodePointRange{0, 0xD7FF}, CodePointRange{0xE000, 0x10FFFF}}),
                      false, id, true, any_code_point);
      builder_.add_rule(RuleSpec{other, std::move(any_code_point), 0, "", where(id)});
      builder_.add_rule(RuleSpec{other, {it->second}, 0, "", where(id)});
    }
    out.push_back(other);
  }

  // Each item on its own. (Merging runs of items lexed whole into one terminal, `"{" ws` or a
  // key with its colon, was measured: fewer parser steps, but longer overlapping terminals made
  // json.gbnf's masks 1.5-2x slower with the wfa engine.)
  void append_sequence(NodeId id, std::vector<std::string>& out) {
    for (const NodeId child : grammar_.nodes[id].children) append(child, false, out);
  }

  void append_repetition(NodeId id, std::vector<std::string>& out) {
    const Node& node = grammar_.nodes[id];
    if (node.max_count == 0) return;
    const NodeId child = node.children.front();
    const Node& repeated = grammar_.nodes[child];
    const bool counts_text = repeated.kind == NodeKind::kToken && repeated.token_negated &&
                             node.max_count == kUnbounded && node.min_count <= 1;
    if (counts_text) repeated_negation_ = child;
    std::vector<std::string> item = symbols(child, false);
    repeated_negation_ = kNoNode;
    if (item.empty()) return;
    // (x|ε)* is x*: an optional item inside a star would make the grammar cyclic.
    if (item.size() == 1 && optional_of_.contains(item.front()))
      item.front() = optional_of_.at(item.front());
    std::string symbol = item.front();
    if (item.size() > 1) {
      symbol = generated_name("item");
      builder_.add_nonterminal(Nonterminal{symbol, {}, true, where(id)});
      builder_.add_rule(RuleSpec{symbol, std::move(item), 0, "", where(id)});
    }
    for (std::uint32_t k = 0; k < node.min_count; ++k) out.push_back(symbol);
    if (node.max_count == kUnbounded) {
      const std::string star = generated_name("star");
      builder_.add_nonterminal(Nonterminal{star, {}, true, where(id)});
      builder_.add_rule(RuleSpec{star, {star, symbol}, 0, "", where(id)});
      builder_.add_rule(RuleSpec{star, {}, 0, "", where(id)});
      out.push_back(star);
      return;
    }
    // At most k more: o_k -> symbol o_{k-1} | ε, o_1 -> symbol | ε.
    std::string tail;
    for (std::uint32_t k = 1; k <= node.max_count - node.min_count; ++k) {
      const std::string optional = generated_name("opt");
      builder_.add_nonterminal(Nonterminal{optional, {}, true, where(id)});
      std::vector<std::string> rhs{symbol};
      if (!tail.empty()) rhs.push_back(tail);
      builder_.add_rule(RuleSpec{optional, std::move(rhs), 0, "", where(id)});
      builder_.add_rule(RuleSpec{optional, {}, 0, "", where(id)});
      tail = optional;
    }
    if (!tail.empty()) out.push_back(tail);
  }

  // What a terminal lexed whole from `id` is best called: the rule it references, or the word it
  // spells; empty for the rule being lowered.
  std::string name_hint(NodeId id) const {
    const Node& node = grammar_.nodes[id];
    if (node.kind == NodeKind::kRuleRef) return rule_symbol_name(grammar_.rules[node.rule].name);
    if (node.kind != NodeKind::kLiteral || node.text.empty() || node.text.size() > 24) return {};
    std::string word;
    for (const char32_t c : node.text) {
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) return {};
      word += static_cast<char>(c);
    }
    return word;
  }

  std::string generated_name(std::string_view kind) {
    return fresh_name(
        fmt::format("__{}_{}", rule_symbol_name(grammar_.rules[current_rule_].name), kind));
  }

  // The terminal of `pattern` (one per distinct pattern), or its optional form when the pattern
  // also matches the empty text (the lexer never emits an empty lexeme). `origin` is the part to
  // split when the munch check names the terminal; atomic terminals have nothing to split.
  void append_terminal(const std::string& pattern, bool nullable, NodeId origin, bool atomic,
                       std::vector<std::string>& out, std::string_view hint = {}) {
    auto it = terminal_names_.find(pattern);
    if (it == terminal_names_.end()) {
      const std::string name = fresh_name(
          upper(hint.empty() ? rule_symbol_name(grammar_.rules[current_rule_].name) : hint));
      Terminal terminal;
      terminal.name = name;
      terminal.pattern = pattern;
      terminal.whole_language = true;
      terminal.origin = where(origin);
      builder_.add_terminal(std::move(terminal));
      it = terminal_names_.emplace(pattern, name).first;
      origins_[name];
    }
    if (!atomic) origins_[it->second].push_back(origin);
    if (!nullable) {
      out.push_back(it->second);
      return;
    }
    // Terminal names are upper case and rule names lower case, so NAME_opt is free.
    const std::string optional_name = it->second + "_opt";
    if (!optional_of_.contains(optional_name)) {
      reserve_name(optional_name);
      builder_.add_nonterminal(Nonterminal{optional_name, {}, true, where(origin)});
      builder_.add_rule(RuleSpec{optional_name, {it->second}, 0, "", where(origin)});
      builder_.add_rule(RuleSpec{optional_name, {}, 0, "", where(origin)});
      optional_of_.emplace(optional_name, it->second);
    }
    out.push_back(optional_name);
  }

  const Grammar& grammar_;
  const Analysis& analysis_;
  PatternWriter& patterns_;
  // Per node: lowered finer than one terminal, because the munch check named its terminal.
  const std::vector<std::uint8_t>& split_;
  GrammarBuilder builder_;
  std::set<std::string> used_names_;
  std::set<std::string> rule_names_taken_;
  std::map<std::uint32_t, std::string> rule_names_;
  std::set<std::uint32_t> split_rules_;
  std::set<std::uint32_t> lowered_rules_;
  std::vector<std::uint32_t> pending_rules_;
  std::uint32_t current_rule_ = 0;
  std::unordered_map<std::string, std::string> terminal_names_;  // pattern -> name
  std::map<std::string, std::string> token_terminals_;           // [!]spelling -> name
  static constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();
  NodeId repeated_negation_ = kNoNode;  // the negated token append_repetition is lowering
  std::map<std::string, std::string> optional_of_;  // NAME_opt -> NAME
  std::map<std::string, std::vector<NodeId>> origins_;
};

}  // namespace

GrammarModel lower_gbnf(const Grammar& grammar, const LoweringOptions& options) {
  const Analysis analysis(grammar);
  PatternWriter patterns(grammar, analysis);
  std::vector<std::uint8_t> split(grammar.nodes.size(), 0);
  for (std::uint32_t round = 1;; ++round) {
    std::map<std::string, std::vector<NodeId>> origins;
    GrammarModel model = Lowering(grammar, analysis, patterns, split).run(options.start, origins);
    t_last_rounds = round;
    if (!options.check) return model;
    const std::vector<std::string> cut = options.check(model);
    if (cut.empty()) return model;
    bool refined = false;
    for (const std::string& name : cut) {
      const auto it = origins.find(name);
      if (it == origins.end()) continue;
      for (const NodeId node : it->second) {
        refined = refined || split[node] == 0;
        split[node] = 1;
      }
    }
    if (!refined || round >= options.max_rounds) {
      throw internal_grammar_error(
          SourceLocation{grammar.file, 0, 0},
          fmt::format("GBNF lowering: terminal {} may extend past a lexeme boundary and cannot be "
                      "split further (round {})",
                      cut.front(), round));
    }
  }
}

std::uint32_t last_lowering_rounds() {
  return t_last_rounds;
}

}  // namespace glrmask::gbnf
