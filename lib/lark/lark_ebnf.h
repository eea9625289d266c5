// EBNF to BNF for the rules of a Lark grammar.
//
//  - Groups `( a | b )`, optionals `x?` and `[x]` are multiplied out into the alternatives of the
//    rule, as Lark does: `a: b c? d` becomes `a: b c d | b d`. This keeps the grammar free of
//    ε-rules that LR parsing would have to guess about. Should one alternative multiply into more
//    than kMaxAlternativesPerSequence alternatives, its largest groups are moved into helper rules
//    instead (Lark has no such bound and grows exponentially).
//  - Repetition becomes a left-recursive helper rule, which keeps LR stacks shallow:
//      x+  ->  _a_plus_N                with  _a_plus_N: x | _a_plus_N x
//      x*  ->  _a_star_N, or nothing    with  _a_star_N: x | _a_star_N x
//    so `a: b x* c` becomes `a: b _a_star_0 c | b c`. Helpers never derive ε: the obvious
//    `_star: | _star x` would make `[x*]` ambiguous (two ways to derive nothing) and `(x*)*`
//    cyclic. A helper is shared by every identical repetition in the grammar (as Lark shares them).
//  - `x ~ n` and `x ~ n..m` repeat x inline for small counts; larger ranges use a right-recursive
//    chain of helpers (bounded, so one token of lookahead decides).
// Helper names start with `_` (inlined in parse trees, as Lark's own helpers are), are derived
// from the rule they come from and never collide with a name the grammar defines.
//
// Literals and regexps inside rules become anonymous terminals through the TerminalTable.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "lib/grammar/grammar_model.h"
#include "lib/lark/lark_syntax.h"
#include "lib/lark/lark_terminal_table.h"

namespace glrmask::lark {

inline constexpr std::size_t kMaxAlternativesPerSequence = 4096;
inline constexpr std::uint32_t kMaxInlineRepeat = 32;
inline constexpr std::uint32_t kMaxRepeatCount = 10000;

struct BnfAlternative {
  std::vector<std::string> symbols;
  std::string alias;
  SourceLocation origin;
};

struct BnfRule {
  std::string name;
  TreeShape shape;
  bool generated = false;
  int priority = 0;
  SourceLocation origin;
  std::vector<BnfAlternative> alternatives;
};

class EbnfExpander {
 public:
  // `name_taken` tells whether the grammar defines a symbol of that name.
  EbnfExpander(TerminalTable& terminals, std::function<bool(const std::string&)> name_taken)
      : terminals_(terminals), name_taken_(std::move(name_taken)) {}

  // The BNF form of one rule definition found in `file`.
  BnfRule expand(const Definition& definition, const std::string& file);

  // Helper rules created so far, in creation order.
  const std::vector<BnfRule>& helpers() const { return helpers_; }

 private:
  using Sequence = std::vector<std::string>;
  using Options = std::vector<Sequence>;
  struct Context {
    const Definition* rule = nullptr;
    const std::string* file = nullptr;
  };

  Options item_options(const Expr& expr, const Context& context);
  Options sequence_options(const std::vector<Expr>& items, const Context& context,
                           const SourceLocation& origin);
  Options group_options(const std::vector<Alternative>& alternatives, const Context& context);
  Options repeat_count_options(const Expr& expr, const Context& context);
  // A helper rule whose alternatives are `body(name)`; reused when `key` was seen before.
  std::string helper(const std::string& kind, const std::string& key, const Context& context,
                     const SourceLocation& origin,
                     const std::function<Options(const std::string& name)>& body);
  std::string repetition(const Options& item, const std::string& kind, const Context& context,
                         const SourceLocation& origin);
  std::string repeat_chain(const Sequence& item, std::uint32_t count, const Context& context,
                           const SourceLocation& origin);
  SourceLocation location(const Context& context, TextPos pos) const;

  TerminalTable& terminals_;
  std::function<bool(const std::string&)> name_taken_;
  std::vector<BnfRule> helpers_;
  std::unordered_set<std::string> helper_names_;
  std::map<std::string, std::string> helper_by_key_;
  int next_helper_ = 0;
};

}  // namespace glrmask::lark
