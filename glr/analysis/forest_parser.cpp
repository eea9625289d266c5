#include "glr/analysis/forest_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <utility>

#include "glr/analysis/local_graph.h"
#include "glr/strong_components.h"
#include "lib/core/error.h"

namespace glrmask::glr {

namespace {

// Paths from the heads to the bottom, each weighted by the product of its edges' tree counts.
// GSS cycles (ε-reductions stacked at one position) give infinitely many stacks.
DerivationCount count_stacks(std::span<const GssNodeRef> heads, const ForestBuilder& builder,
                             DerivationCounter& counter) {
  LocalGraph<const GssNode*> local;
  for (const GssNodeRef& head : heads) local.visit(head.get());
  for (std::size_t i = 0; i < local.nodes.size(); ++i)
    for (const GssNode* below : local.nodes[i]->below()) local.add_edge(i, below);
  const auto n = local.size();
  const SinksFirst graph = sinks_first(n, std::move(local.edges));
  std::vector<DerivationCount> paths(n);
  std::vector<char> solved(n, 0);
  for (const std::uint32_t i : graph.order) {
    const GssNode* node = local.nodes[i];
    DerivationCount total;
    if (graph.on_cycle[i]) {
      total = DerivationCount::infinity();
    } else if (node->below().empty()) {
      total.value = 1;  // the bottom of the stacks
    } else {
      for (const GssNode* below : node->below()) {
        const std::uint32_t b = local.at(below);
        if (!solved[b])
          throw Error("internal error: GSS components out of order", ErrorCode::kInternal);
        const DerivationCount edge = counter.count(builder.label(node, below));
        if (edge.infinite || paths[b].infinite) {
          total = DerivationCount::infinity();
        } else if (!total.infinite) {
          total.value += edge.value * paths[b].value;
        }
      }
    }
    paths[i] = std::move(total);
    solved[i] = 1;
  }
  DerivationCount sum;
  for (const GssNodeRef& head : heads) {
    const DerivationCount& part = paths[local.at(head.get())];
    if (part.infinite) return DerivationCount::infinity();
    sum.value += part.value;
  }
  return sum;
}

}  // namespace

ForestParser::ForestParser(const ForestGrammar& grammar)
    : grammar_(grammar), parser_(grammar.table()), builder_(forest_), counter_(forest_) {
  if (grammar.compiled().indenter() != nullptr) {
    throw Error(
        "parse forests are not built with a post-lexer (GrammarOptions::postlex): the parser's "
        "tokens are not the lexer's there",
        ErrorCode::kUnsupported);
  }
  heads_ = parser_.initial_heads();
  const auto& terminals = grammar.compiled().dfa().terminals();
  ignored_.resize(terminals.size());
  skippable_.resize(terminals.size());
  for (std::size_t t = 0; t < terminals.size(); ++t) {
    ignored_[t] = terminals[t].ignored;
    skippable_[t] = grammar.compiled().is_skippable(static_cast<SymbolId>(t));
  }
}

bool ForestParser::feed(const lexer::Lexeme& token) {
  if (finished_)
    throw Error("internal error: ForestParser::feed after finish", ErrorCode::kInternal);
  const lexer::LexerDfa& dfa = grammar_.compiled().dfa();
  if (dfa.label_is_ignored(token.label)) return true;
  const auto position = static_cast<std::uint32_t>(lexemes_.size());
  builder_.set_position(position);
  counter_.set_complete_before(position);
  GssHeads merged;
  bool keep_unchanged = false;
  for (const SymbolId terminal : dfa.label_terminals(token.label)) {
    if (ignored_[terminal]) {
      keep_unchanged = true;
      continue;
    }
    GssHeads next = parser_.shift(heads_, terminal, builder_);
    if (next.empty()) {
      keep_unchanged = keep_unchanged || skippable_[terminal];
    } else {
      merged = merged.empty() ? std::move(next) : GlrParser::merge(merged, next, &builder_);
    }
  }
  if (keep_unchanged) merged = GlrParser::merge(merged, heads_, &builder_);
  if (merged.empty()) return false;
  heads_ = std::move(merged);
  lexemes_.push_back(token);
  // No later step ends a derivation at this position.
  counter_.set_complete_before(position + 1);
  return true;
}

std::optional<ForestNodeId> ForestParser::finish() {
  if (finished_) throw Error("internal error: ForestParser::finish twice", ErrorCode::kInternal);
  finished_ = true;
  const auto position = static_cast<std::uint32_t>(lexemes_.size());
  builder_.set_position(position);
  counter_.set_complete_before(position);
  std::optional<ForestNodeId> root = parser_.accept(heads_, builder_);
  if (root) forest_.set_root(*root);
  counter_.set_complete_before(position + 1);
  return root;
}

DerivationCount ForestParser::live_readings() {
  return count_stacks(heads_, builder_, counter_);
}

std::vector<std::vector<ForestNodeId>> ForestParser::stack_tops(std::size_t limit,
                                                                std::size_t depth) const {
  std::vector<std::vector<ForestNodeId>> tops;
  std::vector<ForestNodeId> path;
  auto seen = [&](const std::vector<ForestNodeId>& top) {
    return std::find(tops.begin(), tops.end(), top) != tops.end();
  };
  std::function<void(const GssNode*)> walk = [&](const GssNode* node) {
    if (tops.size() >= limit) return;
    if (path.size() == depth || node->below().empty()) {
      if (!seen(path)) tops.push_back(path);
      return;
    }
    for (const GssNode* below : node->below()) {
      path.push_back(builder_.label(node, below));
      walk(below);
      path.pop_back();
      if (tops.size() >= limit) return;
    }
  };
  for (const GssNodeRef& head : heads_) walk(head.get());
  return tops;
}

DerivationCount ForestParser::derivations() {
  if (!forest_.root())
    throw Error("internal error: derivations() of a forest without a root", ErrorCode::kInternal);
  return counter_.count(*forest_.root());
}

ForestParse parse_forest(const ForestGrammar& grammar, std::string_view text) {
  const std::vector<lexer::Lexeme> tokens = lexer::lex_text(grammar.compiled().dfa(), text);
  ForestParser parser(grammar);
  for (const lexer::Lexeme& token : tokens) {
    if (!parser.feed(token)) {
      throw Error(fmt::format("syntax error at byte offset {}: the token {:?} ({}) cannot follow",
                              token.begin, text.substr(token.begin, token.end - token.begin),
                              grammar.compiled().dfa().describe_label(token.label)),
                  ErrorCode::kRejected,
                  ErrorLocation::at_byte(static_cast<std::int64_t>(token.begin)));
    }
  }
  if (!parser.finish()) {
    throw Error(fmt::format("syntax error at byte offset {} (end of input): the text is not a "
                            "complete sentence",
                            text.size()),
                ErrorCode::kRejected,
                ErrorLocation::at_byte(static_cast<std::int64_t>(text.size())));
  }
  ForestParse parse;
  parse.derivations = parser.derivations();
  parse.root = *parser.forest().root();
  parse.lexemes = parser.lexemes();
  parse.forest = parser.forest();
  return parse;
}

std::optional<ForestParse> parse_terminals(const LrTable& table,
                                           std::span<const SymbolId> terminals) {
  GlrParser parser(table);
  ForestParse parse;
  ForestBuilder builder(parse.forest);
  GssHeads heads = parser.initial_heads();
  for (std::size_t i = 0; i < terminals.size(); ++i) {
    builder.set_position(static_cast<std::uint32_t>(i));
    heads = parser.shift(heads, terminals[i], builder);
    if (heads.empty()) return std::nullopt;
    parse.lexemes.push_back({0, i, i + 1});
  }
  builder.set_position(static_cast<std::uint32_t>(terminals.size()));
  const std::optional<ForestNodeId> root = parser.accept(heads, builder);
  if (!root) return std::nullopt;
  parse.forest.set_root(*root);
  parse.root = *root;
  DerivationCounter counter(parse.forest);
  parse.derivations = counter.count(*root);
  return parse;
}

}  // namespace glrmask::glr
