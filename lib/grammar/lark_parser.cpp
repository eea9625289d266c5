#include "lib/grammar/lark_parser.h"

#include <fmt/format.h>

#include <charconv>
#include <utility>
#include <vector>

#include "lib/grammar/grammar_error.h"
#include "lib/grammar/lark_lexer.h"

namespace glrmask::lark {
namespace {

class Parser {
 public:
  Parser(std::string_view text, const std::string& file)
      : file_(file), tokens_(tokenize_lark(text, file)) {}

  GrammarSyntax run() {
    GrammarSyntax syntax;
    syntax.file = file_;
    while (true) {
      while (at(TokenKind::kNewline)) advance();
      if (at(TokenKind::kEnd)) break;
      syntax.statements.push_back(statement());
    }
    return syntax;
  }

 private:
  [[noreturn]] void fail(TextPos pos, const std::string& message) const {
    throw GrammarError(SourceLocation{file_, pos.line, pos.column}, message);
  }

  const Token& current() const { return tokens_[next_]; }
  bool at(TokenKind kind) const { return current().kind == kind; }
  const Token& advance() {
    const Token& token = tokens_[next_];
    if (next_ + 1 < tokens_.size()) ++next_;
    return token;
  }

  static bool starts_item(TokenKind kind) {
    return kind == TokenKind::kRuleName || kind == TokenKind::kTerminalName ||
           kind == TokenKind::kString || kind == TokenKind::kRegexp || kind == TokenKind::kLParen ||
           kind == TokenKind::kLBracket;
  }
  static bool is_operator(TokenKind kind) {
    return kind == TokenKind::kQuestion || kind == TokenKind::kStar || kind == TokenKind::kPlus ||
           kind == TokenKind::kTilde;
  }

  Statement statement() {
    Statement statement;
    statement.pos = current().pos;
    if (!at(TokenKind::kDirective)) {
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
      while (at(TokenKind::kRuleName) || at(TokenKind::kTerminalName)) {
        const Token& name = advance();
        statement.declared.push_back(
            {std::string(name.text), name.kind == TokenKind::kTerminalName, name.pos});
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
    const Token& first = current();
    while (at(TokenKind::kBang) || at(TokenKind::kQuestion)) {
      const Token& modifier = advance();
      bool& flag = modifier.kind == TokenKind::kBang ? definition.keep_all_tokens
                                                     : definition.inline_if_single;
      if (flag) fail(modifier.pos, fmt::format("repeated rule modifier {}", describe(modifier)));
      flag = true;
      if (!at(TokenKind::kRuleName) && !at(TokenKind::kBang) && !at(TokenKind::kQuestion)) {
        fail(modifier.pos, "the rule modifiers '?' and '!' must be followed by a rule name");
      }
    }
    if (!at(TokenKind::kRuleName) && !at(TokenKind::kTerminalName)) {
      fail(first.pos,
           fmt::format("expected a rule or terminal definition, found {}", describe(first)));
    }
    const Token& name = advance();
    definition.is_terminal = name.kind == TokenKind::kTerminalName;
    definition.name = std::string(name.text);
    definition.pos = name.pos;
    if (at(TokenKind::kLBrace)) {
      fail(current().pos, "templates ('rule{param}') are not supported by glrmask");
    }
    if (at(TokenKind::kDot)) {
      advance();
      if (!at(TokenKind::kNumber)) {
        fail(current().pos, fmt::format("expected a priority number after '{}.'", name.text));
      }
      definition.priority = number(advance());
    }
    if (!at(TokenKind::kColon)) {
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
    const Token& token = current();
    switch (token.kind) {
      case TokenKind::kNewline:
        advance();
        return;
      case TokenKind::kRParen:
        fail(token.pos, "unmatched ')'");
      case TokenKind::kRBracket:
        fail(token.pos, "unmatched ']'");
      case TokenKind::kColon:
        fail(token.pos, "unexpected ':' (each definition must start on a new line)");
      case TokenKind::kArrow:
        fail(token.pos, "misplaced '->' (one alias per alternative)");
      default:
        if (is_operator(token.kind)) {
          fail(token.pos,
               fmt::format("misplaced operator {} (it must follow an item)", describe(token)));
        }
        fail(token.pos, fmt::format("unexpected {}", describe(token)));
    }
  }

  std::vector<Alternative> alternatives() {
    std::vector<Alternative> result;
    result.push_back(alternative());
    while (at(TokenKind::kOr)) {
      advance();
      result.push_back(alternative());
    }
    return result;
  }

  Alternative alternative() {
    Alternative alternative;
    alternative.pos = current().pos;
    while (starts_item(current().kind)) alternative.items.push_back(expr());
    if (at(TokenKind::kArrow)) {
      advance();
      if (!at(TokenKind::kRuleName)) {
        fail(current().pos, "an alias after '->' must be a lowercase rule name");
      }
      const Token& alias = advance();
      alternative.alias = std::string(alias.text);
      alternative.alias_pos = alias.pos;
    }
    return alternative;
  }

  Expr expr() {
    Expr atom_expr = atom();
    if (!is_operator(current().kind)) return atom_expr;
    const Token& op = advance();
    Expr wrapped;
    wrapped.pos = atom_expr.pos;
    if (op.kind == TokenKind::kTilde) {
      wrapped.kind = Expr::Kind::kRepeatCount;
      if (!at(TokenKind::kNumber)) fail(current().pos, "expected a count after '~'");
      const Token& low = advance();
      wrapped.min = count(low);
      wrapped.max = wrapped.min;
      if (at(TokenKind::kDotDot)) {
        advance();
        if (!at(TokenKind::kNumber)) fail(current().pos, "expected a count after '..'");
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
    const Token& token = advance();
    Expr expr;
    expr.pos = token.pos;
    expr.text = std::string(token.text);
    switch (token.kind) {
      case TokenKind::kRuleName:
        if (at(TokenKind::kLBrace)) {
          fail(current().pos, "templates ('rule{arg}') are not supported by glrmask");
        }
        expr.kind = Expr::Kind::kRule;
        return expr;
      case TokenKind::kTerminalName:
        expr.kind = Expr::Kind::kTerminal;
        return expr;
      case TokenKind::kRegexp:
        expr.kind = Expr::Kind::kRegexp;
        return expr;
      case TokenKind::kString:
        expr.kind = Expr::Kind::kString;
        if (at(TokenKind::kDotDot)) {
          advance();
          if (!at(TokenKind::kString)) fail(current().pos, "expected a string after '..'");
          expr.kind = Expr::Kind::kRange;
          expr.text2 = std::string(advance().text);
        }
        return expr;
      case TokenKind::kLParen:
      case TokenKind::kLBracket: {
        const bool paren = token.kind == TokenKind::kLParen;
        expr.kind = paren ? Expr::Kind::kGroup : Expr::Kind::kMaybe;
        expr.text.clear();
        if (++depth_ > kMaxNesting) {
          fail(token.pos, fmt::format("brackets nested more than {} deep", kMaxNesting));
        }
        expr.alternatives = alternatives();
        --depth_;
        const TokenKind closer = paren ? TokenKind::kRParen : TokenKind::kRBracket;
        if (at(closer)) {
          advance();
          return expr;
        }
        const char* open = paren ? "(" : "[";
        const char* close = paren ? ")" : "]";
        if (at(TokenKind::kNewline) || at(TokenKind::kEnd)) {
          fail(token.pos, fmt::format("unclosed '{}' (expected '{}' before {})", open, close,
                                      describe(current())));
        }
        fail(current().pos,
             fmt::format("expected '{}' to close the '{}' at {}:{}, found {}", close, open,
                         token.pos.line, token.pos.column, describe(current())));
      }
      default:
        fail(token.pos, fmt::format("unexpected {}", describe(token)));
    }
  }

  Import import_statement() {
    Import import;
    if (at(TokenKind::kDot)) {
      advance();
      import.relative = true;
    }
    auto path_name = [&]() -> const Token& {
      if (!at(TokenKind::kRuleName) && !at(TokenKind::kTerminalName)) {
        fail(current().pos,
             fmt::format("%import expects a dotted name, found {}", describe(current())));
      }
      return advance();
    };
    std::vector<const Token*> path = {&path_name()};
    while (at(TokenKind::kDot)) {
      advance();
      path.push_back(&path_name());
    }
    for (std::size_t i = 0; i + 1 < path.size(); ++i) import.module.emplace_back(path[i]->text);
    if (at(TokenKind::kLParen)) {
      import.module.emplace_back(path.back()->text);
      advance();
      while (true) {
        const Token& name = path_name();
        import.names.push_back({std::string(name.text), std::string(name.text), name.pos});
        if (at(TokenKind::kComma)) {
          advance();
          continue;
        }
        if (!at(TokenKind::kRParen)) {
          fail(current().pos, fmt::format("expected ',' or ')' in the %import list, found {}",
                                          describe(current())));
        }
        advance();
        break;
      }
    } else {
      const Token& name = *path.back();
      if (import.module.empty()) {
        fail(name.pos, fmt::format("nothing imported from '{0}' (write %import {0}.NAME or "
                                   "%import {0} (NAME, ...))",
                                   name.text));
      }
      Import::Name imported{std::string(name.text), std::string(name.text), name.pos};
      if (at(TokenKind::kArrow)) {
        advance();
        const Token& alias = path_name();
        if (alias.kind != name.kind) {
          fail(alias.pos,
               fmt::format("alias '{}' must be a {} name like '{}'", alias.text,
                           name.kind == TokenKind::kRuleName ? "rule" : "terminal", name.text));
        }
        imported.local = std::string(alias.text);
      }
      import.names.push_back(std::move(imported));
    }
    end_of_statement();
    return import;
  }

  int number(const Token& token) const {
    std::string_view text = token.text;
    if (text.starts_with('+')) text.remove_prefix(1);
    int value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
      fail(token.pos, fmt::format("number {} is out of range", token.text));
    }
    return value;
  }

  std::uint32_t count(const Token& token) const {
    int value = number(token);
    if (value < 0) fail(token.pos, fmt::format("repetition count {} is negative", value));
    return static_cast<std::uint32_t>(value);
  }

  // Nesting is recursion here and in every later pass; bound it so that hostile input gets an
  // error instead of exhausting the stack.
  static constexpr int kMaxNesting = 200;

  const std::string& file_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  int depth_ = 0;
};

}  // namespace

GrammarSyntax parse_lark(std::string_view text, const std::string& file) {
  return Parser(text, file).run();
}

}  // namespace glrmask::lark
