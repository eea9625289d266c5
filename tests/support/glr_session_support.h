// Independent references for the GLR session tests: an Earley recognizer written from the
// grammar model alone (no LR tables, no GSS), fed the lexemes of the project's lexer, with the same
// lexeme semantics the session documents (docs/glr.md): each lexeme is a set of alternative
// terminals, an %ignore'd alternative means "skip", and a skippable terminal that cannot be
// scanned is skipped.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lexer/runtime/streaming_lexer.h"
#include "lib/core/error.h"
#include "lib/grammar/grammar_model.h"
#include "lib/lark/lark_loader.h"
#include "lib/tokenizer/tokenizer_spec.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/test_support.h"

namespace glrmask::testing {

class Earley {
 public:
  struct Outcome {
    bool viable = false;    // every lexeme was consumed and some continuation may follow
    bool accepted = false;  // the lexemes form a sentence
  };

  Earley(const GrammarModel& grammar, std::vector<SymbolId> skippable)
      : grammar_(grammar), skippable_(std::move(skippable)) {
    nullable_.assign(grammar.num_symbols(), 0);
    for (bool changed = true; changed;) {
      changed = false;
      for (const Rule& rule : grammar.rules()) {
        if (nullable_[rule.lhs.value()]) continue;
        bool all = true;
        for (SymbolId s : rule.rhs) all = all && !grammar.is_terminal(s) && nullable_[s.value()];
        if (all) nullable_[rule.lhs.value()] = changed = true;
      }
    }
  }

  // `lexemes[i]` lists the alternatives of lexeme i (terminal ids).
  Outcome run(const std::vector<std::vector<SymbolId>>& lexemes) const {
    std::vector<std::set<Item>> charts(lexemes.size() + 1);
    const auto rules = grammar_.rules();
    for (std::size_t r = 0; r < rules.size(); ++r)
      if (rules[r].lhs == grammar_.start()) charts[0].insert(Item{r, 0, 0});
    close(charts, 0);
    for (std::size_t k = 0; k < lexemes.size(); ++k) {
      std::set<Item>& next = charts[k + 1];
      for (const SymbolId terminal : lexemes[k]) {
        if (grammar_.terminal(terminal).ignored) {
          next.insert(charts[k].begin(), charts[k].end());
          continue;
        }
        bool scanned = false;
        for (const Item& item : charts[k]) {
          const auto& rhs = rules[item.rule].rhs;
          if (item.dot < rhs.size() && rhs[item.dot] == terminal) {
            next.insert(Item{item.rule, item.dot + 1, item.origin});
            scanned = true;
          }
        }
        if (!scanned && is_skippable(terminal)) next.insert(charts[k].begin(), charts[k].end());
      }
      close(charts, k + 1);
      if (next.empty()) return {};
    }
    Outcome outcome;
    outcome.viable = true;
    for (const Item& item : charts.back()) {
      if (item.origin == 0 && rules[item.rule].lhs == grammar_.start() &&
          item.dot == rules[item.rule].rhs.size())
        outcome.accepted = true;
    }
    return outcome;
  }

 private:
  struct Item {
    std::size_t rule, dot, origin;
    auto operator<=>(const Item&) const = default;
  };

  bool is_skippable(SymbolId terminal) const {
    return std::find(skippable_.begin(), skippable_.end(), terminal) != skippable_.end();
  }

  // Prediction and completion to a fixed point (Aycock and Horspool: predicting a nullable
  // nonterminal also steps over it).
  void close(std::vector<std::set<Item>>& charts, std::size_t k) const {
    const auto rules = grammar_.rules();
    std::vector<Item> agenda(charts[k].begin(), charts[k].end());
    auto add = [&](Item item) {
      if (charts[k].insert(item).second) agenda.push_back(item);
    };
    while (!agenda.empty()) {
      const Item item = agenda.back();
      agenda.pop_back();
      const auto& rhs = rules[item.rule].rhs;
      if (item.dot < rhs.size()) {
        const SymbolId next = rhs[item.dot];
        if (grammar_.is_terminal(next)) continue;
        for (std::size_t r = 0; r < rules.size(); ++r)
          if (rules[r].lhs == next) add(Item{r, 0, k});
        if (nullable_[next.value()]) add(Item{item.rule, item.dot + 1, item.origin});
      } else {
        const SymbolId lhs = rules[item.rule].lhs;
        const std::vector<Item> waiting(charts[item.origin].begin(), charts[item.origin].end());
        for (const Item& parent : waiting) {
          const auto& parent_rhs = rules[parent.rule].rhs;
          if (parent.dot < parent_rhs.size() && parent_rhs[parent.dot] == lhs)
            add(Item{parent.rule, parent.dot + 1, parent.origin});
        }
      }
    }
  }

  const GrammarModel& grammar_;
  std::vector<SymbolId> skippable_;
  std::vector<char> nullable_;
};

// The reference verdict on a whole text: the project's lexer (lex_text, tested on its own) turns it
// into lexemes, Earley decides. A lexing error means "not a sentence, not viable".
inline Earley::Outcome reference_verdict(const glr::CompiledGrammar& grammar,
                                         std::string_view text) {
  std::vector<lexer::Lexeme> lexemes;
  try {
    lexemes = lexer::lex_text(grammar.dfa(), text);
  } catch (const Error&) {
    return {};
  }
  std::vector<std::vector<SymbolId>> alternatives;
  for (const lexer::Lexeme& lexeme : lexemes) {
    alternatives.emplace_back();
    for (const std::uint32_t terminal : grammar.dfa().label_terminals(lexeme.label))
      alternatives.back().push_back(grammar.grammar().terminal_id(terminal));
  }
  std::vector<SymbolId> skippable;
  for (const glr::SymbolId terminal : grammar.skippable_terminals())
    skippable.push_back(glr::grammar_terminal(terminal));
  return Earley(grammar.grammar(), std::move(skippable)).run(alternatives);
}

inline std::shared_ptr<const glr::CompiledGrammar> compile_lark(std::string_view text,
                                                                glr::ParseOptions options = {}) {
  return glr::CompiledGrammar::compile(load_lark_text(text, "test.lark"), options);
}

inline std::shared_ptr<const glr::CompiledGrammar> load_session_fixture(
    const std::string& name, glr::ParseOptions options = {}) {
  return glr::CompiledGrammar::load_lark(fixtures_dir() / "glr_session" / name, options);
}

// The offset a glrmask::Error names as "... byte offset N ...", or -1.
inline long long error_offset(const std::string& message) {
  const std::string key = "byte offset ";
  const auto at = message.find(key);
  if (at == std::string::npos) return -1;
  return std::stoll(message.substr(at + key.size()));
}

// What happens to a whole text: accepted, or rejected at a byte offset (the end of the text when
// it is only incomplete).
struct Verdict {
  bool accepted = false;
  long long error_offset = -1;
  std::string message;
  bool operator==(const Verdict& other) const {
    return accepted == other.accepted && error_offset == other.error_offset;
  }
};

inline std::ostream& operator<<(std::ostream& out, const Verdict& verdict) {
  return out << (verdict.accepted ? "accepted"
                                  : "rejected at " + std::to_string(verdict.error_offset) + ": " +
                                        verdict.message);
}

// Commits the pieces in order, then ends the text.
inline Verdict verdict_of_pieces(
    const std::shared_ptr<const glr::IncrementalRecognizer>& recognizer,
    const std::vector<std::string_view>& pieces) {
  glr::Session session(recognizer, nullptr, {.max_rollback = 0});
  try {
    for (const std::string_view piece : pieces) session.commit_bytes(piece);
    session.commit_end();
  } catch (const Error& error) {
    return {false, error_offset(error.what()), error.what()};
  }
  return {true, -1, ""};
}

inline Verdict verdict_of(const std::shared_ptr<const glr::IncrementalRecognizer>& recognizer,
                          std::string_view text) {
  return verdict_of_pieces(recognizer, {text});
}

inline Verdict verdict_byte_by_byte(
    const std::shared_ptr<const glr::IncrementalRecognizer>& recognizer, std::string_view text) {
  std::vector<std::string_view> pieces;
  for (std::size_t i = 0; i < text.size(); ++i) pieces.push_back(text.substr(i, 1));
  return verdict_of_pieces(recognizer, pieces);
}

// A hand-made vocabulary: ids 0..n-1 are `tokens` (exact bytes; no '▁' needed, spaces are kept),
// then "</s>" (special, EOS) and "<pad>" (special).
inline Vocabulary tiny_vocabulary(const std::vector<std::string>& tokens) {
  std::vector<std::string> pieces;
  for (const std::string& token : tokens) {
    std::string piece;
    for (const char c : token) piece += c == ' ' ? std::string("\u2581") : std::string(1, c);
    pieces.push_back(piece);
  }
  TokenizerSpec spec;
  spec.path = "tiny/tokenizer.json";
  spec.kind = VocabularyKind::SentencePiece;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    spec.vocab.emplace_back(pieces[i], static_cast<TokenId>(i));
  const auto n = static_cast<TokenId>(tokens.size());
  spec.added_tokens.push_back({n, "</s>", true, false, false});
  spec.added_tokens.push_back({n + 1, "<pad>", true, false, false});
  spec.has_config = true;
  spec.eos_token = "</s>";
  return Vocabulary(spec);
}

}  // namespace glrmask::testing
