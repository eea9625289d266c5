// Parse trees as Lark prints them, so that a tree of ours can be compared with Lark's (Earley
// with ambiguity='explicit' lists the same trees under `_ambig` nodes).
//
// Lark shapes a derivation before it becomes a tree (Lark 1.1.5, parse_tree_builder.py):
//  - a terminal is left out when its name starts with `_` or it is an anonymous string literal,
//    unless the rule keeps all tokens (`!rule`);
//  - a child nonterminal whose name starts with `_` (including the helpers EBNF expansion makes)
//    is replaced by its children;
//  - a `?rule` with exactly one child (after the above) is replaced by that child, unless the
//    alternative has an alias;
//  - an alternative with an alias (`-> name`) makes a tree called `name`.
// Not reproduced: `[x]` placeholders (Lark's maybe_placeholders puts None where `[x]` matched
// nothing; compare with maybe_placeholders=False), and a literal written in a rule that equals a
// named terminal's string (Lark filters it like an anonymous one; we keep it, as the grammar model
// no longer knows how the rule spelled it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "glr/analysis/derivation_tree.h"
#include "glr/analysis/forest_grammar.h"

namespace glrmask::glr {

struct LarkTree {
  std::string data;  // a tree's rule name or alias; a token's terminal name
  bool is_token = false;
  std::string value;  // a token's text
  std::vector<LarkTree> children;
};

// The text of token i of the forest's token stream.
using TokenText = std::function<std::string(std::uint32_t token)>;

// `lark_shaping` false keeps every node (named by its nonterminal, helpers included) and every
// token, so the tree shows the derivation exactly.
LarkTree shape_tree(const DerivationTree& tree, const ForestGrammar& grammar,
                    const TokenText& token_text, bool lark_shaping = true);

// Lark's Tree.pretty(): two spaces per level, a tree whose only child is a token on one line
// (`name<TAB>value`). A bare token prints as its value.
std::string lark_pretty(const LarkTree& tree);

}  // namespace glrmask::glr
