#include "lib/lark/lark_ebnf.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "lib/lark/lark_terminal_compiler.h"

namespace glrmask::lark {
namespace {

template <typename T>
void remove_duplicates(std::vector<T>& items) {
  std::set<T> seen;
  std::erase_if(items, [&](const T& item) { return !seen.insert(item).second; });
}

// A text that identifies a list of symbol sequences, for sharing helper rules.
std::string options_key(const std::vector<std::vector<std::string>>& options) {
  std::string key;
  for (const auto& sequence : options) {
    for (const auto& symbol : sequence) key += symbol + ' ';
    key += '|';
  }
  return key;
}

std::size_t saturating_product(const std::vector<std::size_t>& sizes) {
  std::size_t product = 1;
  for (std::size_t size : sizes) {
    if (size != 0 && product > kMaxAlternativesPerSequence * 16 / size) {
      return kMaxAlternativesPerSequence * 16;
    }
    product *= size;
  }
  return product;
}

}  // namespace

SourceLocation EbnfExpander::location(const Context& context, TextPos pos) const {
  return SourceLocation{*context.file, pos.line, pos.column};
}

BnfRule EbnfExpander::expand(const Definition& definition, const std::string& file) {
  const Context context{&definition, &file};
  BnfRule rule;
  rule.name = definition.name;
  rule.shape.inline_always = definition.name.starts_with('_');
  rule.shape.inline_if_single = definition.inline_if_single;
  rule.shape.keep_all_tokens = definition.keep_all_tokens;
  rule.priority = definition.priority.value_or(0);
  rule.origin = location(context, definition.pos);
  for (const Alternative& alternative : definition.body) {
    if (!alternative.alias.empty() && rule.shape.inline_always) {
      throw GrammarError(location(context, alternative.alias_pos),
                         fmt::format("rule '{}' is inlined (its name starts with '_') and cannot "
                                     "have aliases",
                                     definition.name));
    }
    SourceLocation origin = location(context, alternative.pos);
    for (Sequence& symbols : sequence_options(alternative.items, context, origin)) {
      rule.alternatives.push_back({std::move(symbols), alternative.alias, origin});
    }
  }
  std::set<std::pair<Sequence, std::string>> seen;
  std::erase_if(rule.alternatives, [&](const BnfAlternative& alternative) {
    return !seen.insert({alternative.symbols, alternative.alias}).second;
  });
  return rule;
}

EbnfExpander::Options EbnfExpander::sequence_options(const std::vector<Expr>& items,
                                                     const Context& context,
                                                     const SourceLocation& origin) {
  std::vector<Options> per_item;
  per_item.reserve(items.size());
  for (const Expr& item : items) per_item.push_back(item_options(item, context));

  // Bound the multiplication: move the largest choices into helper rules until it fits.
  std::vector<std::size_t> sizes;
  for (const Options& options : per_item) sizes.push_back(options.size());
  while (saturating_product(sizes) > kMaxAlternativesPerSequence) {
    const auto largest =
        static_cast<std::size_t>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
    Options body = per_item[largest];
    // Keep an empty choice outside the helper while that still shrinks the product, so that the
    // helper does not derive ε.
    const bool keep_empty_outside =
        body.size() > 2 && std::any_of(body.begin(), body.end(),
                                       [](const Sequence& sequence) { return sequence.empty(); });
    if (keep_empty_outside) {
      std::erase_if(body, [](const Sequence& sequence) { return sequence.empty(); });
    }
    std::string name = helper("alt", "alt:" + options_key(body), context, origin,
                              [&](const std::string&) { return body; });
    per_item[largest] = {{name}};
    if (keep_empty_outside) per_item[largest].push_back({});
    sizes[largest] = per_item[largest].size();
  }

  // Multiply out, the first item varying slowest (Lark's order).
  Options result = {{}};
  for (const Options& options : per_item) {
    Options next;
    next.reserve(result.size() * options.size());
    for (const Sequence& prefix : result) {
      for (const Sequence& option : options) {
        Sequence combined = prefix;
        combined.insert(combined.end(), option.begin(), option.end());
        next.push_back(std::move(combined));
      }
    }
    result = std::move(next);
  }
  remove_duplicates(result);
  return result;
}

EbnfExpander::Options EbnfExpander::group_options(const std::vector<Alternative>& alternatives,
                                                  const Context& context) {
  Options result;
  for (const Alternative& alternative : alternatives) {
    if (!alternative.alias.empty()) {
      throw GrammarError(location(context, alternative.alias_pos),
                         "an alias (->) may only end a whole alternative of a rule, not an "
                         "alternative inside ( ) or [ ]");
    }
    for (Sequence& sequence :
         sequence_options(alternative.items, context, location(context, alternative.pos))) {
      result.push_back(std::move(sequence));
    }
  }
  remove_duplicates(result);
  return result;
}

EbnfExpander::Options EbnfExpander::item_options(const Expr& expr, const Context& context) {
  const SourceLocation origin = location(context, expr.pos);
  switch (expr.kind) {
    case Expr::Kind::kRule:
    case Expr::Kind::kTerminal:
      return {{expr.text}};
    case Expr::Kind::kString:
    case Expr::Kind::kRegexp:
    case Expr::Kind::kRange:
    case Expr::Kind::kToken:
      return {{terminals_.intern_anonymous(leaf_pattern(expr, *context.file), origin)}};
    case Expr::Kind::kBuiltin:
      throw internal_grammar_error(origin, "a built-in pattern inside a rule");
    case Expr::Kind::kGroup:
      return group_options(expr.alternatives, context);
    case Expr::Kind::kMaybe: {
      Options options = group_options(expr.alternatives, context);
      options.push_back({});
      remove_duplicates(options);
      return options;
    }
    case Expr::Kind::kRepeatCount:
      return repeat_count_options(expr, context);
    case Expr::Kind::kRepeat:
      break;
  }

  Options child = item_options(expr.children[0], context);
  if (expr.op == '?') {
    child.push_back({});
    remove_duplicates(child);
    return child;
  }
  // x+ is a left-recursive helper; x* is that helper or nothing. Generated rules thus never
  // derive ε themselves, which keeps [x*] and (x*)* free of spurious ambiguity and ε-cycles.
  // An empty choice inside x only makes x+ mean x*.
  const bool nullable = std::any_of(child.begin(), child.end(),
                                    [](const Sequence& sequence) { return sequence.empty(); });
  std::erase_if(child, [](const Sequence& sequence) { return sequence.empty(); });
  if (child.empty()) return {{}};
  const std::string name = repetition(child, expr.op == '*' ? "star" : "plus", context, origin);
  if (expr.op == '*' || nullable) return {{name}, {}};
  return {{name}};
}

std::string EbnfExpander::repetition(const Options& item, const std::string& kind,
                                     const Context& context, const SourceLocation& origin) {
  return helper(kind, "repeat:" + options_key(item), context, origin, [&](const std::string& self) {
    Options body = item;
    for (const Sequence& option : item) {
      Sequence recursive = {self};
      recursive.insert(recursive.end(), option.begin(), option.end());
      body.push_back(std::move(recursive));
    }
    return body;
  });
}

EbnfExpander::Options EbnfExpander::repeat_count_options(const Expr& expr, const Context& context) {
  const SourceLocation origin = location(context, expr.pos);
  if (expr.max > kMaxRepeatCount) {
    throw GrammarError(origin, fmt::format("repetition count {} is too large (at most {})",
                                           expr.max, kMaxRepeatCount));
  }
  Options child = item_options(expr.children[0], context);
  if (child.size() > 1) {
    std::string name = helper("group", "group:" + options_key(child), context, origin,
                              [&](const std::string&) { return child; });
    child = {{name}};
  }
  const Sequence& item = child[0];
  auto repeat = [&](std::uint32_t times) {
    Sequence sequence;
    for (std::uint32_t i = 0; i < times; ++i)
      sequence.insert(sequence.end(), item.begin(), item.end());
    return sequence;
  };
  Options result;
  if (item.empty()) return {{}};
  if (expr.max <= kMaxInlineRepeat) {
    for (std::uint32_t times = expr.min; times <= expr.max; ++times)
      result.push_back(repeat(times));
  } else {
    result.push_back(repeat(expr.min));
    if (expr.max > expr.min) {
      Sequence more = repeat(expr.min);
      more.push_back(repeat_chain(item, expr.max - expr.min, context, origin));
      result.push_back(std::move(more));
    }
  }
  remove_duplicates(result);
  return result;
}

// U_k derives 1..k copies of `item`: U_1: item, and U_k: item | item U_(k-1). Right recursion
// decides after each copy whether another follows, so one token of lookahead suffices.
std::string EbnfExpander::repeat_chain(const Sequence& item, std::uint32_t count,
                                       const Context& context, const SourceLocation& origin) {
  std::string previous;
  for (std::uint32_t k = 1; k <= count; ++k) {
    const std::string key = fmt::format("upto{}:{}", k, options_key({item}));
    previous = helper("repeat", key, context, origin, [&](const std::string&) {
      Options body = {item};
      if (!previous.empty()) {
        Sequence more = item;
        more.push_back(previous);
        body.push_back(std::move(more));
      }
      return body;
    });
  }
  return previous;
}

std::string EbnfExpander::helper(const std::string& kind, const std::string& key,
                                 const Context& context, const SourceLocation& origin,
                                 const std::function<Options(const std::string& name)>& body) {
  const bool keep_all_tokens = context.rule->keep_all_tokens;
  const std::string full_key = key + (keep_all_tokens ? "!" : "");
  if (auto it = helper_by_key_.find(full_key); it != helper_by_key_.end()) return it->second;

  std::string_view base = context.rule->name;
  if (base.starts_with('_')) base.remove_prefix(1);
  std::string name;
  do {
    name = fmt::format("_{}_{}_{}", base, kind, next_helper_++);
  } while (name_taken_(name) || helper_names_.contains(name));
  helper_names_.insert(name);
  helper_by_key_.emplace(full_key, name);

  BnfRule rule;
  rule.name = name;
  rule.shape.inline_always = true;
  rule.shape.keep_all_tokens = keep_all_tokens;
  rule.generated = true;
  rule.origin = origin;
  for (Sequence& symbols : body(name))
    rule.alternatives.push_back({std::move(symbols), "", origin});
  helpers_.push_back(std::move(rule));
  return name;
}

}  // namespace glrmask::lark
