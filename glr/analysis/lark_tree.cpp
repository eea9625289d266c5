#include "glr/analysis/lark_tree.h"

namespace glrmask::glr {

namespace {

bool filtered_out(const Terminal& terminal) {
  return terminal.name.starts_with('_') || (terminal.anonymous && terminal.is_literal);
}

class Shaper {
 public:
  Shaper(const ForestGrammar& grammar, const TokenText& token_text, bool lark)
      : grammar_(grammar), token_text_(token_text), lark_(lark) {}

  LarkTree token(const DerivationTree& leaf) const {
    LarkTree token;
    token.is_token = true;
    token.data = grammar_.lr_grammar().name(leaf.symbol);
    token.value = token_text_(leaf.start);
    return token;
  }

  LarkTree build(const DerivationTree& tree) const {
    if (tree.is_leaf()) return token(tree);
    const Rule& rule = grammar_.grammar().rules()[grammar_.grammar_rule(tree.rule)];
    LarkTree result;
    result.data =
        rule.alias.empty() ? std::string(grammar_.lr_grammar().name(tree.symbol)) : rule.alias;
    for (const TreeRef& child : tree.children) {
      if (child->is_leaf()) {
        const Terminal& terminal = grammar_.grammar().terminal(grammar_terminal(child->symbol));
        if (!lark_ || rule.shape.keep_all_tokens || !filtered_out(terminal))
          result.children.push_back(token(*child));
        continue;
      }
      LarkTree built = build(*child);
      // A child is a nonterminal of the grammar model (never $accept, which is only at the root).
      const GrammarSymbolId grammar_symbol = *grammar_.lr_grammar().to_cfg_symbol(child->symbol);
      const bool splice = lark_ && !built.is_token &&
                          grammar_.grammar().nonterminal(grammar_symbol).shape.inline_always;
      if (splice) {
        for (LarkTree& grandchild : built.children)
          result.children.push_back(std::move(grandchild));
      } else {
        result.children.push_back(std::move(built));
      }
    }
    if (lark_ && rule.shape.inline_if_single && rule.alias.empty() && result.children.size() == 1)
      return std::move(result.children.front());
    return result;
  }

 private:
  const ForestGrammar& grammar_;
  const TokenText& token_text_;
  bool lark_;
};

void append_pretty(const LarkTree& tree, int level, std::string& out) {
  out.append(static_cast<std::size_t>(2 * level), ' ');
  out += tree.data;
  if (tree.children.size() == 1 && tree.children.front().is_token) {
    out += '\t';
    out += tree.children.front().value;
    out += '\n';
    return;
  }
  out += '\n';
  for (const LarkTree& child : tree.children) {
    if (!child.is_token) {
      append_pretty(child, level + 1, out);
      continue;
    }
    out.append(static_cast<std::size_t>(2 * (level + 1)), ' ');
    out += child.value;
    out += '\n';
  }
}

}  // namespace

LarkTree shape_tree(const DerivationTree& tree, const ForestGrammar& grammar,
                    const TokenText& token_text, bool lark_shaping) {
  return Shaper(grammar, token_text, lark_shaping).build(tree);
}

std::string lark_pretty(const LarkTree& tree) {
  if (tree.is_token) return tree.value + "\n";
  std::string out;
  append_pretty(tree, 0, out);
  return out;
}

}  // namespace glrmask::glr
