#include "lib/lark/lark_terminal_compiler.h"

#include <fmt/format.h>
#include <unicode/utf8.h>

#include <algorithm>

#include "lib/lark/lark_escapes.h"

namespace glrmask::lark {
namespace {

SourceLocation at(const std::string& file, TextPos pos) {
  return SourceLocation{file, pos.line, pos.column};
}

// The single code point of a range end, or -1 when the string is not exactly one code point.
UChar32 single_code_point(std::string_view text) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto length = static_cast<std::int32_t>(text.size());
  std::int32_t i = 0;
  UChar32 c = -1;
  if (length > 0) U8_NEXT(bytes, i, length, c);
  return i == length ? c : -1;
}

Pattern repeated(const Pattern& inner, const std::string& op) {
  return Pattern{"(?:" + inner.to_regexp() + ")" + op, inner.flags, false, "", ""};
}

}  // namespace

std::string Pattern::to_regexp() const {
  if (flags.empty()) return regex;
  return "(?" + flags + ":" + regex + ")";
}

std::string Pattern::identity() const {
  if (!token.empty()) return "t:" + token;
  std::string id = is_literal ? "s:" : "r:";
  id += flags;
  id += ':';
  id += is_literal ? literal : regex;
  return id;
}

Pattern leaf_pattern(const Expr& expr, const std::string& file) {
  if (expr.kind == Expr::Kind::kToken) {
    Pattern token;
    token.token = expr.text;
    return token;
  }
  if (expr.kind == Expr::Kind::kString || expr.kind == Expr::Kind::kRegexp) {
    DecodedLiteral decoded = decode_literal(expr.text, expr.pos, file);
    if (decoded.is_regexp) return Pattern{std::move(decoded.value), decoded.flags, false, "", ""};
    return Pattern{regex_escape(decoded.value), decoded.flags, true, std::move(decoded.value), ""};
  }
  if (expr.kind != Expr::Kind::kRange) {
    throw internal_grammar_error(at(file, expr.pos), "not a literal");
  }
  DecodedLiteral low = decode_literal(expr.text, expr.pos, file);
  DecodedLiteral high = decode_literal(expr.text2, expr.pos, file);
  if (!low.flags.empty() || !high.flags.empty()) {
    throw GrammarError(at(file, expr.pos), "a range (\"a\"..\"z\") cannot have flags");
  }
  const UChar32 first = single_code_point(low.value);
  const UChar32 last = single_code_point(high.value);
  if (first < 0 || last < 0) {
    throw GrammarError(at(file, expr.pos),
                       fmt::format("a range needs single characters on both sides, not {}..{}",
                                   expr.text, expr.text2));
  }
  if (first > last) {
    throw GrammarError(at(file, expr.pos),
                       fmt::format("empty range {}..{} (the first character comes after the last)",
                                   expr.text, expr.text2));
  }
  return Pattern{"[" + regex_class_escape(low.value) + "-" + regex_class_escape(high.value) + "]",
                 "", false, "", ""};
}

const Pattern& TerminalCompiler::pattern_of(const std::string& name) {
  if (auto it = done_.find(name); it != done_.end()) return it->second;
  const TerminalSource* source = lookup_(name);
  if (source == nullptr || source->body == nullptr) {
    throw internal_grammar_error(SourceLocation{}, fmt::format("terminal '{}' has no body", name));
  }
  if (in_progress_.size() >= kMaxReferenceDepth) {
    throw GrammarError(source->origin,
                       fmt::format("terminal '{}' is built from terminals nested more than {} deep",
                                   name, kMaxReferenceDepth));
  }
  in_progress_.push_back(name);
  Pattern pattern = compile(*source->body, source->file, fmt::format("terminal '{}'", name));
  in_progress_.pop_back();
  if (pattern.regex.size() > kMaxPatternBytes) {
    throw GrammarError(source->origin,
                       fmt::format("terminal '{}' expands to a pattern of {} bytes (at most {})",
                                   name, pattern.regex.size(), kMaxPatternBytes));
  }
  return done_.emplace(name, std::move(pattern)).first->second;
}

Pattern TerminalCompiler::compile(const std::vector<Alternative>& body, const std::string& file,
                                  const std::string& what) {
  if (body.size() == 1 && body[0].items.empty()) {
    throw GrammarError(at(file, body[0].pos), fmt::format("{} is empty", what));
  }
  return alternatives(body, file, what);
}

Pattern TerminalCompiler::alternatives(const std::vector<Alternative>& body,
                                       const std::string& file, const std::string& what) {
  if (body.size() == 1) return sequence(body[0], file, what);
  std::string regex = "(?:";
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (i > 0) regex += '|';
    regex += sequence(body[i], file, what).to_regexp();
  }
  regex += ')';
  return Pattern{std::move(regex), "", false, "", ""};
}

Pattern TerminalCompiler::sequence(const Alternative& alternative, const std::string& file,
                                   const std::string& what) {
  if (!alternative.alias.empty()) {
    throw GrammarError(at(file, alternative.alias_pos),
                       fmt::format("aliases (->) are not allowed in terminals (in {})", what));
  }
  if (alternative.items.size() == 1) return item(alternative.items[0], file, what);
  Pattern result;
  for (const Expr& expr : alternative.items) {
    Pattern part = item(expr, file, what);
    std::string regex = part.to_regexp();
    if (has_top_level_alternation(regex)) regex = "(?:" + regex + ")";
    result.regex += regex;
  }
  return result;
}

Pattern TerminalCompiler::item(const Expr& expr, const std::string& file, const std::string& what) {
  switch (expr.kind) {
    case Expr::Kind::kString:
    case Expr::Kind::kRegexp:
    case Expr::Kind::kRange:
      return leaf_pattern(expr, file);
    case Expr::Kind::kBuiltin:
      return Pattern{expr.text, "", false, "", ""};
    case Expr::Kind::kToken:
      throw GrammarError(at(file, expr.pos),
                         fmt::format("the token {} cannot be part of {}: a token is matched by "
                                     "its id, not by text, so it may appear only in rules",
                                     expr.text, what));
    case Expr::Kind::kRule:
      throw GrammarError(at(file, expr.pos),
                         fmt::format("rule '{}' cannot be part of {} (terminals are regular; "
                                     "only terminals, strings and regexps may appear in them)",
                                     expr.text, what));
    case Expr::Kind::kTerminal: {
      const TerminalSource* source = lookup_(expr.text);
      if (source == nullptr) {
        throw GrammarError(
            at(file, expr.pos),
            fmt::format("terminal '{}' is used but not defined (in {})", expr.text, what));
      }
      if (source->body == nullptr) {
        throw GrammarError(at(file, expr.pos),
                           fmt::format("terminal '{}' is %declare'd and has no pattern, so it "
                                       "cannot be part of {}",
                                       expr.text, what));
      }
      auto cycle = std::find(in_progress_.begin(), in_progress_.end(), expr.text);
      if (cycle != in_progress_.end()) {
        std::string chain;
        for (auto it = cycle; it != in_progress_.end(); ++it) chain += *it + " -> ";
        throw GrammarError(at(file, expr.pos),
                           fmt::format("terminal '{}' refers to itself ({}{}); recursion is only "
                                       "allowed in rules",
                                       expr.text, chain, expr.text));
      }
      return pattern_of(expr.text);
    }
    case Expr::Kind::kGroup:
      return alternatives(expr.alternatives, file, what);
    case Expr::Kind::kMaybe:
      return repeated(alternatives(expr.alternatives, file, what), "?");
    case Expr::Kind::kRepeat:
      return repeated(item(expr.children[0], file, what), std::string(1, expr.op));
    case Expr::Kind::kRepeatCount: {
      Pattern inner = item(expr.children[0], file, what);
      if (expr.min == expr.max) return repeated(inner, fmt::format("{{{}}}", expr.min));
      return repeated(inner, fmt::format("{{{},{}}}", expr.min, expr.max));
    }
  }
  throw internal_grammar_error(at(file, expr.pos), "unknown expression");
}

}  // namespace glrmask::lark
