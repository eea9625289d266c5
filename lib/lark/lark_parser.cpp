#include "lib/lark/lark_parser.h"

#include <fmt/format.h>

#include <charconv>
#include <utility>
#include <vector>

#include "lib/grammar/grammar_error.h"
#include "lib/lark/lark_lexer.h"

namespace glrmask::lark {
namespace {

class Parser {
 public:
  Parser(std::string_view text, const std::string& file)
      : file_(file), lexemes_(lex_lark(text, file)) {}

  GrammarSyntax run() {
    GrammarSyntax syntax;
    syntax.file = file_;
    while (true) {
      while (at(LexemeKind::kNewline)) advance();
      if (at(LexemeKind::kEnd)) break;
      syntax.statements.push_back(statement());
    }
    return syntax;
  }

 private:
  [[noreturn]] void fail(TextPos pos, const std::string& message) const {
    throw GrammarError(SourceLocation{file_, pos.line, pos.column}, message);
  }

  const Lexeme& current() const { return lexemes_[next_]; }
  bool at(LexemeKind kind) const { return current().kind == kind; }
  const Lexeme& advance() {
    const Lexeme& lexeme = lexemes_[next_];
    if (next_ + 1 < lexemes_.size()) ++next_;
    return lexeme;
  }

  static bool starts_item(LexemeKind kind) {
    return kind == LexemeKind::kRuleName || kind == LexemeKind::kTerminalName ||
           kind == LexemeKind::kString || kind == LexemeKind::kRegexp ||
           kind == LexemeKind::kToken || kind == LexemeKind::kLParen ||
           kind == LexemeKind::kLBracket;
  }
  static bool is_operator(LexemeKind kind) {
    return kind == LexemeKind::kQuestion || kind == LexemeKind::kStar ||
           kind == LexemeKind::kPlus || kind == LexemeKind::kTilde;
  }

  Statement statement() {
    Statement statement;
    statement.pos = current().pos;
    if (!at(LexemeKind::kDirective)) {
      statement.kind = Statement::Kind::kDefine;
      statement.definition = definition();
      return statement;
    }
    const std::string_view directive = advance().text;
    if (directive == "%ignore") {
      statement.kind = Statement::Kind::kIgnore;
      if (!starts_item(current().kind))
        fail(current().pos, "%ignore expects a terminal or pattern");
      statement.ignored = alternatives();
      end_of_statement();
    } else if (directive == "%import") {
      statement.kind = Statement::Kind::kImport;
      statement.import = import_statement();
    } else if (directive == "%declare") {
      statement.kind = Statement::Kind::kDeclare;
      while (at(LexemeKind::kRuleName) || at(LexemeKind::kTerminalName)) {
        const Lexeme& name = advance();
        statement.declared.push_back(
            {std::string(name.text), name.kind == LexemeKind::kTerminalName, name.pos});
      }
      if (statement.declared.empty()) fail(current().pos, "%declare expects one or more names");
      end_of_statement();
    } else {
      statement.kind =
          directive == "%override" ? Statement::Kind::kOverride : Statement::Kind::kExtend;
      statement.definition = definition();
    }
    return statement;
  }

  Definition definition() {
    Definition definition;
    const Lexeme& first = current();
    while (at(LexemeKind::kBang) || at(LexemeKind::kQuestion)) {
      const Lexeme& modifier = advance();
      bool& flag = modifier.kind == LexemeKind::kBang ? definition.keep_all_tokens
                                                      : definition.inline_if_single;
      if (flag) fail(modifier.pos, fmt::format("repeated rule modifier {}", describe(modifier)));
      flag = true;
      if (!at(LexemeKind::kRuleName) && !at(LexemeKind::kBang) && !at(LexemeKind::kQuestion)) {
        fail(modifier.pos, "the rule modifiers '?' and '!' must be followed by a rule name");
      }
    }
    if (!at(LexemeKind::kRuleName) && !at(LexemeKind::kTerminalName)) {
      fail(first.pos,
           fmt::format("expected a rule or terminal definition, found {}", describe(first)));
    }
    const Lexeme& name = advance();
    definition.is_terminal = name.kind == LexemeKind::kTerminalName;
    definition.name = std::string(name.text);
    definition.pos = name.pos;
    if (at(LexemeKind::kLBrace)) {
      fail(current().pos, "templates ('rule{param}') are not supported by glrmask");
    }
    if (at(LexemeKind::kDot)) {
      advance();
      if (!at(LexemeKind::kNumber)) {
        fail(current().pos, fmt::format("expected a priority number after '{}.'", name.text));
      }
      definition.priority = number(advance());
    }
    if (!at(LexemeKind::kColon)) {
      fail(current().pos, fmt::format("expected ':' after '{}' (missing colon?), found {}",
                                      name.text, describe(current())));
    }
    advance();
    definition.body = alternatives();
    end_of_statement();
    return definition;
  }

  // After a statement only a line break may follow; explain the usual ways this goes wrong.
  void end_of_statement() {
    const Lexeme& lexeme = current();
    switch (lexeme.kind) {
      case LexemeKind::kNewline:
        advance();
        return;
      case LexemeKind::kRParen:
        fail(lexeme.pos, "unmatched ')'");
      case LexemeKind::kRBracket:
        fail(lexeme.pos, "unmatched ']'");
      case LexemeKind::kColon:
        fail(lexeme.pos, "unexpected ':' (each definition must start on a new line)");
      case LexemeKind::kArrow:
        fail(lexeme.pos, "misplaced '->' (one alias per alternative)");
      default:
        if (is_operator(lexeme.kind)) {
          fail(lexeme.pos,
               fmt::format("misplaced operator {} (it must follow an item)", describe(lexeme)));
        }
        fail(lexeme.pos, fmt::format("unexpected {}", describe(lexeme)));
    }
  }

  std::vector<Alternative> alternatives() {
    std::vector<Alternative> result;
    result.push_back(alternative());
    while (at(LexemeKind::kOr)) {
      advance();
      result.push_back(alternative());
    }
    return result;
  }

  Alternative alternative() {
    Alternative alternative;
    alternative.pos = current().pos;
    while (starts_item(current().kind)) alternative.items.push_back(expr());
    if (at(LexemeKind::kArrow)) {
      advance();
      if (!at(LexemeKind::kRuleName)) {
        fail(current().pos, "an alias after '->' must be a lowercase rule name");
      }
      const Lexeme& alias = advance();
      alternative.alias = std::string(alias.text);
      alternative.alias_pos = alias.pos;
    }
    return alternative;
  }

  Expr expr() {
    Expr atom_expr = atom();
    if (!is_operator(current().kind)) return atom_expr;
    const Lexeme& op = advance();
    Expr wrapped;
    wrapped.pos = atom_expr.pos;
    if (op.kind == LexemeKind::kTilde) {
      wrapped.kind = Expr::Kind::kRepeatCount;
      if (!at(LexemeKind::kNumber)) fail(current().pos, "expected a count after '~'");
      const Lexeme& low = advance();
      wrapped.min = count(low);
      wrapped.max = wrapped.min;
      if (at(LexemeKind::kDotDot)) {
        advance();
        if (!at(LexemeKind::kNumber)) fail(current().pos, "expected a count after '..'");
        wrapped.max = count(advance());
        if (wrapped.max < wrapped.min) {
          fail(low.pos, fmt::format("bad repetition range {}..{}", wrapped.min, wrapped.max));
        }
      }
    } else {
      wrapped.kind = Expr::Kind::kRepeat;
      wrapped.op = op.text[0];
    }
    wrapped.children.push_back(std::move(atom_expr));
    if (is_operator(current().kind)) {
      fail(current().pos, fmt::format("misplaced operator {} (one operator per item; use "
                                      "parentheses to combine)",
                                      describe(current())));
    }
    return wrapped;
  }

  Expr atom() {
    const Lexeme& lexeme = advance();
    Expr expr;
    expr.pos = lexeme.pos;
    expr.text = std::string(lexeme.text);
    switch (lexeme.kind) {
      case LexemeKind::kRuleName:
        if (at(LexemeKind::kLBrace)) {
          fail(current().pos, "templates ('rule{arg}') are not supported by glrmask");
        }
        expr.kind = Expr::Kind::kRule;
        return expr;
      case LexemeKind::kTerminalName:
        expr.kind = Expr::Kind::kTerminal;
        return expr;
      case LexemeKind::kRegexp:
        expr.kind = Expr::Kind::kRegexp;
        return expr;
      case LexemeKind::kToken:
        expr.kind = Expr::Kind::kToken;
        return expr;
      case LexemeKind::kString:
        expr.kind = Expr::Kind::kString;
        if (at(LexemeKind::kDotDot)) {
          advance();
          if (!at(LexemeKind::kString)) fail(current().pos, "expected a string after '..'");
          expr.kind = Expr::Kind::kRange;
          expr.text2 = std::string(advance().text);
        }
        return expr;
      case LexemeKind::kLParen:
      case LexemeKind::kLBracket: {
        const bool paren = lexeme.kind == LexemeKind::kLParen;
        expr.kind = paren ? Expr::Kind::kGroup : Expr::Kind::kMaybe;
        expr.text.clear();
        if (++depth_ > kMaxNesting) {
          fail(lexeme.pos, fmt::format("brackets nested more than {} deep", kMaxNesting));
        }
        expr.alternatives = alternatives();
        --depth_;
        const LexemeKind closer = paren ? LexemeKind::kRParen : LexemeKind::kRBracket;
        if (at(closer)) {
          advance();
          return expr;
        }
        const char* open = paren ? "(" : "[";
        const char* close = paren ? ")" : "]";
        if (at(LexemeKind::kNewline) || at(LexemeKind::kEnd)) {
          fail(lexeme.pos, fmt::format("unclosed '{}' (expected '{}' before {})", open, close,
                                       describe(current())));
        }
        fail(current().pos,
             fmt::format("expected '{}' to close the '{}' at {}:{}, found {}", close, open,
                         lexeme.pos.line, lexeme.pos.column, describe(current())));
      }
      default:
        fail(lexeme.pos, fmt::format("unexpected {}", describe(lexeme)));
    }
  }

  Import import_statement() {
    Import import;
    if (at(LexemeKind::kDot)) {
      advance();
      import.relative = true;
    }
    auto path_name = [&]() -> const Lexeme& {
      if (!at(LexemeKind::kRuleName) && !at(LexemeKind::kTerminalName)) {
        fail(current().pos,
             fmt::format("%import expects a dotted name, found {}", describe(current())));
      }
      return advance();
    };
    std::vector<const Lexeme*> path = {&path_name()};
    while (at(LexemeKind::kDot)) {
      advance();
      path.push_back(&path_name());
    }
    for (std::size_t i = 0; i + 1 < path.size(); ++i) import.module.emplace_back(path[i]->text);
    if (at(LexemeKind::kLParen)) {
      import.module.emplace_back(path.back()->text);
      advance();
      while (true) {
        const Lexeme& name = path_name();
        import.names.push_back({std::string(name.text), std::string(name.text), name.pos});
        if (at(LexemeKind::kComma)) {
          advance();
          continue;
        }
        if (!at(LexemeKind::kRParen)) {
          fail(current().pos, fmt::format("expected ',' or ')' in the %import list, found {}",
                                          describe(current())));
        }
        advance();
        break;
      }
    } else {
      const Lexeme& name = *path.back();
      if (import.module.empty()) {
        fail(name.pos, fmt::format("nothing imported from '{0}' (write %import {0}.NAME or "
                                   "%import {0} (NAME, ...))",
                                   name.text));
      }
      Import::Name imported{std::string(name.text), std::string(name.text), name.pos};
      if (at(LexemeKind::kArrow)) {
        advance();
        const Lexeme& alias = path_name();
        if (alias.kind != name.kind) {
          fail(alias.pos,
               fmt::format("alias '{}' must be a {} name like '{}'", alias.text,
                           name.kind == LexemeKind::kRuleName ? "rule" : "terminal", name.text));
        }
        imported.local = std::string(alias.text);
      }
      import.names.push_back(std::move(imported));
    }
    end_of_statement();
    return import;
  }

  int number(const Lexeme& lexeme) const {
    std::string_view text = lexeme.text;
    if (text.starts_with('+')) text.remove_prefix(1);
    int value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
      fail(lexeme.pos, fmt::format("number {} is out of range", lexeme.text));
    }
    return value;
  }

  std::uint32_t count(const Lexeme& lexeme) const {
    int value = number(lexeme);
    if (value < 0) fail(lexeme.pos, fmt::format("repetition count {} is negative", value));
    return static_cast<std::uint32_t>(value);
  }

  // Nesting is recursion here and in every later pass; bound it so that hostile input gets an
  // error instead of exhausting the stack.
  static constexpr int kMaxNesting = 200;

  const std::string& file_;
  std::vector<Lexeme> lexemes_;
  std::size_t next_ = 0;
  int depth_ = 0;
};

}  // namespace

GrammarSyntax parse_lark(std::string_view text, const std::string& file) {
  return Parser(text, file).run();
}

}  // namespace glrmask::lark
