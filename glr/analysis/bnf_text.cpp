#include "glr/analysis/bnf_text.h"

#include <fmt/format.h>

#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lib/core/error.h"

namespace glrmask::glr {
namespace {

struct Location {
  std::size_t line = 0;
  std::size_t column = 0;
};

struct SymbolUse {
  std::string name;
  Location where;
};

struct Production {
  SymbolUse lhs;
  std::vector<SymbolUse> rhs;
  int priority = 0;
  Location where;  // start of the alternative
};

bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_identifier_char(char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}

// Lark's rule: a name is a terminal when all its cased letters are uppercase and it has one.
bool is_terminal_name(std::string_view name) {
  if (!name.empty() && name.front() == '"') return true;
  bool has_upper = false;
  for (char c : name) {
    if (c >= 'a' && c <= 'z') return false;
    if (c >= 'A' && c <= 'Z') has_upper = true;
  }
  return has_upper;
}

class BnfReader {
 public:
  BnfReader(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  Cfg read() {
    std::size_t line_start = 0;
    for (std::size_t line = 1; line_start <= text_.size(); ++line) {
      std::size_t line_end = text_.find('\n', line_start);
      if (line_end == std::string_view::npos) line_end = text_.size();
      read_line(text_.substr(line_start, line_end - line_start), line);
      line_start = line_end + 1;
    }
    return build();
  }

 private:
  [[noreturn]] void fail(Location where, const std::string& message) const {
    throw Error(fmt::format("{}:{}:{}: {}", source_, where.line, where.column, message),
                ErrorCode::kGrammar,
                ErrorLocation::in_file(std::string(source_), static_cast<std::uint32_t>(where.line),
                                       static_cast<std::uint32_t>(where.column)));
  }

  void read_line(std::string_view line, std::size_t line_number) {
    line_ = line;
    line_number_ = line_number;
    pos_ = 0;
    skip_space();
    if (at_end()) return;
    const char first = line_[pos_];
    if (first == '%') {
      read_directive();
    } else if (first == '|') {
      if (!current_.has_value()) fail(here(), "'|' continues no rule");
      ++pos_;
      if (!current_is_terminal_) read_alternatives();
    } else {
      read_definition();
    }
  }

  void read_directive() {
    const Location where = here();
    ++pos_;
    const std::string_view name = read_identifier_text();
    if (name != "start") {
      current_.reset();  // %ignore, %import, %declare ...: not part of the BNF
      return;
    }
    skip_space();
    const Location name_where = here();
    const std::string_view start = read_identifier_text();
    if (start.empty()) fail(where, "%start needs a rule name");
    start_ = SymbolUse{std::string(start), name_where};
    skip_space();
    if (!at_end()) fail(here(), "unexpected text after %start");
    current_.reset();
  }

  void read_definition() {
    if (line_[pos_] == '?' || line_[pos_] == '!') ++pos_;  // Lark tree-shaping modifiers
    const Location where = here();
    const std::string_view name = read_identifier_text();
    if (name.empty()) fail(where, fmt::format("expected a rule name, found '{}'", line_[pos_]));
    int priority = 0;
    if (!at_end() && line_[pos_] == '.') {
      ++pos_;
      priority = read_priority();
    }
    skip_space();
    if (at_end() || line_[pos_] != ':') fail(here(), fmt::format("expected ':' after '{}'", name));
    ++pos_;
    current_ = SymbolUse{std::string(name), where};
    current_priority_ = priority;
    current_is_terminal_ = is_terminal_name(name);
    if (current_is_terminal_) return;  // a terminal's pattern is the lexer's business
    if (first_lhs_.empty()) first_lhs_ = std::string(name);
    read_alternatives();
  }

  int read_priority() {
    const Location where = here();
    std::size_t end = pos_;
    if (end < line_.size() && (line_[end] == '-' || line_[end] == '+')) ++end;
    while (end < line_.size() && line_[end] >= '0' && line_[end] <= '9') ++end;
    std::string_view digits = line_.substr(pos_, end - pos_);
    if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
    int value = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || ptr != digits.data() + digits.size()) {
      fail(where, "expected an integer rule priority after '.'");
    }
    pos_ = end;
    return value;
  }

  // Reads `alt | alt | ...` to the end of the line.
  void read_alternatives() {
    skip_space();
    Production production{*current_, {}, current_priority_, here()};
    while (true) {
      skip_space();
      if (at_end()) break;
      const char c = line_[pos_];
      if (c == '|') {
        productions_.push_back(std::move(production));
        ++pos_;
        skip_space();
        production = Production{*current_, {}, current_priority_, here()};
      } else if (c == '"') {
        production.rhs.push_back(read_literal());
      } else if (is_identifier_start(c)) {
        const Location where = here();
        production.rhs.push_back(SymbolUse{std::string(read_identifier_text()), where});
      } else if (c == '/') {
        fail(here(), "regular expressions are not supported in BNF text; name a terminal instead");
      } else if (c == '-' && pos_ + 1 < line_.size() && line_[pos_ + 1] == '>') {
        fail(here(), "aliases ('->') are not supported in BNF text");
      } else {
        fail(here(), fmt::format("'{}' is not supported in BNF text (EBNF operators must be "
                                 "expanded to plain rules)",
                                 c));
      }
    }
    productions_.push_back(std::move(production));
  }

  SymbolUse read_literal() {
    const Location where = here();
    const std::size_t begin = pos_++;
    while (pos_ < line_.size() && line_[pos_] != '"') {
      if (line_[pos_] == '\\') ++pos_;
      ++pos_;
    }
    if (pos_ >= line_.size()) fail(where, "unterminated string literal");
    ++pos_;
    if (pos_ < line_.size() && is_identifier_char(line_[pos_])) {
      fail(here(), "string literal flags are not supported in BNF text");
    }
    return SymbolUse{std::string(line_.substr(begin, pos_ - begin)), where};
  }

  std::string_view read_identifier_text() {
    const std::size_t begin = pos_;
    if (pos_ < line_.size() && is_identifier_start(line_[pos_])) {
      while (pos_ < line_.size() && is_identifier_char(line_[pos_])) ++pos_;
    }
    return line_.substr(begin, pos_ - begin);
  }

  void skip_space() {
    while (pos_ < line_.size()) {
      const char c = line_[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#' || (c == '/' && pos_ + 1 < line_.size() && line_[pos_ + 1] == '/')) {
        pos_ = line_.size();  // a comment runs to the end of the line
      } else {
        break;
      }
    }
  }

  bool at_end() const { return pos_ >= line_.size(); }
  Location here() const { return Location{line_number_, pos_ + 1}; }

  Cfg build() const {
    if (productions_.empty()) fail(Location{1, 1}, "grammar has no rules");
    // Terminals take the ids 0..T-1 in order of first use, nonterminals follow.
    std::unordered_map<std::string, std::uint32_t> terminal_ids;     // -> index among terminals
    std::unordered_map<std::string, std::uint32_t> nonterminal_ids;  // -> among nonterminals
    std::vector<std::string> terminal_names;
    std::vector<std::string> nonterminal_names;
    std::unordered_set<std::string> defined;
    auto note = [&](const SymbolUse& use) {
      if (is_terminal_name(use.name)) {
        if (terminal_ids.emplace(use.name, static_cast<std::uint32_t>(terminal_names.size()))
                .second) {
          terminal_names.push_back(use.name);
        }
      } else if (nonterminal_ids
                     .emplace(use.name, static_cast<std::uint32_t>(nonterminal_names.size()))
                     .second) {
        nonterminal_names.push_back(use.name);
      }
    };
    for (const Production& production : productions_) {
      note(production.lhs);
      defined.insert(production.lhs.name);
      for (const SymbolUse& use : production.rhs) note(use);
    }
    for (const Production& production : productions_) {
      for (const SymbolUse& use : production.rhs) {
        if (!is_terminal_name(use.name) && !defined.count(use.name)) {
          fail(use.where, fmt::format("nonterminal '{}' is used but never defined", use.name));
        }
      }
    }

    Cfg cfg;
    cfg.num_terminals = static_cast<std::uint32_t>(terminal_names.size());
    cfg.symbol_names = terminal_names;
    cfg.symbol_names.insert(cfg.symbol_names.end(), nonterminal_names.begin(),
                            nonterminal_names.end());
    auto id_of = [&](const std::string& name) {
      if (is_terminal_name(name)) return GrammarSymbolId{terminal_ids.at(name)};
      return GrammarSymbolId{cfg.num_terminals + nonterminal_ids.at(name)};
    };
    for (const Production& production : productions_) {
      Cfg::Rule rule;
      rule.lhs = id_of(production.lhs.name);
      for (const SymbolUse& use : production.rhs) rule.rhs.push_back(id_of(use.name));
      rule.priority = production.priority;
      rule.origin =
          fmt::format("{}:{}:{}", source_, production.where.line, production.where.column);
      cfg.rules.push_back(std::move(rule));
    }
    if (start_.has_value()) {
      if (is_terminal_name(start_->name) || !defined.count(start_->name)) {
        fail(start_->where, fmt::format("start rule '{}' is not defined", start_->name));
      }
      cfg.start = id_of(start_->name);
    } else {
      cfg.start = id_of(first_lhs_);
    }
    validate(cfg);
    return cfg;
  }

  std::string_view text_;
  std::string_view source_;
  std::string_view line_;
  std::size_t line_number_ = 0;
  std::size_t pos_ = 0;

  std::optional<SymbolUse> current_;  // the definition that '|' lines continue
  int current_priority_ = 0;
  bool current_is_terminal_ = false;
  std::string first_lhs_;
  std::optional<SymbolUse> start_;
  std::vector<Production> productions_;
};

}  // namespace

Cfg parse_bnf(std::string_view text, std::string_view source_name) {
  return BnfReader(text, source_name).read();
}

}  // namespace glrmask::glr
