// Helpers for the Terminal DWA tests: grammars from Lark text, and the cross-check of the DWA
// against the deterministic lexer (feed()) token by token.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lexer/grammar_terminals.h"
#include "lexer/lexer_configuration.h"
#include "lexer/lexer_dfa_compiler.h"
#include "lexer/lexer_fork.h"
#include "lexer/terminal_dwa.h"
#include "lexer/vocabulary_trie.h"
#include "lib/grammar/lark_loader.h"
#include "lib/token_set/token_set.h"

namespace glrmask::testing {

inline lexer::LexerDfa dfa_from_lark(std::string_view text) {
  return lexer::compile_lexer_dfa(lexer::terminal_specs(load_lark_text(text, "test.lark")));
}

// What one token does from one fork or configuration: every (labels, end fork) alternative.
using Alternatives = std::set<std::pair<std::vector<lexer::LabelId>, lexer::ForkId>>;

// Per token id: the alternatives the DWA stores for tokens read from `fork`.
inline std::vector<Alternatives> dwa_alternatives(const lexer::TerminalDwa& dwa,
                                                  const TokenSetPool& pool, lexer::ForkId fork) {
  std::vector<Alternatives> table(pool.universe_size());
  dwa.for_each_weight(
      fork, [&](const std::vector<lexer::LabelId>& labels, lexer::ForkId end, TokenSetId tokens) {
        for (const TokenId token : pool.to_vector(tokens)) table[token].emplace(labels, end);
      });
  return table;
}

// The labels feed() emitted, without purely ignored ones (the DWA drops those too).
inline std::vector<lexer::LabelId> visible_labels(const lexer::LexerDfa& dfa,
                                                  const std::vector<lexer::EmittedLexeme>& tokens) {
  std::vector<lexer::LabelId> labels;
  for (const lexer::EmittedLexeme& token : tokens) {
    if (!dfa.label_is_ignored(token.label)) labels.push_back(token.label);
  }
  return labels;
}

// The reference: feed the bytes to a copy of the configuration with the deterministic lexer,
// then fork the configuration it ends in. `missing` collects forks the DWA does not know.
inline Alternatives expected_alternatives(const lexer::TerminalDwa& dwa,
                                          const lexer::LexerConfiguration& configuration,
                                          std::string_view bytes, std::string& missing) {
  lexer::LexerConfiguration after = configuration;
  std::vector<lexer::EmittedLexeme> emitted;
  if (lexer::feed(dwa.dfa(), after, bytes, emitted)) return {};  // the token cannot be lexed
  const std::vector<lexer::LabelId> committed = visible_labels(dwa.dfa(), emitted);
  Alternatives alternatives;
  for (const lexer::ForkedLexing& fork : lexer::fork_configuration(dwa.dfa(), after)) {
    std::vector<lexer::LabelId> labels = committed;
    labels.insert(labels.end(), fork.labels.begin(), fork.labels.end());
    const auto id = dwa.find_fork(fork.fork);
    if (!id) {
      missing = lexer::describe_fork(fork.fork);
      continue;
    }
    alternatives.emplace(std::move(labels), *id);
  }
  return alternatives;
}

// Checks every token of `trie` from `configuration`: the DWA (entered through enter(), then
// each entry fork's trie) must give exactly the reference's alternatives. Returns "" or a
// description of the first mismatch.
class ConfigurationChecker {
 public:
  ConfigurationChecker(const lexer::TerminalDwa& dwa, const TokenSetPool& pool,
                       const lexer::VocabularyTrie& trie)
      : dwa_(dwa), pool_(pool), trie_(trie) {}

  std::string check(const lexer::LexerConfiguration& configuration) {
    const std::vector<lexer::DwaEntry> entries = dwa_.enter(configuration);
    for (const TokenId token : trie_.tokens()) {
      Alternatives actual;
      for (const lexer::DwaEntry& entry : entries) {
        for (const auto& [labels, end] : table(entry.fork)[token]) {
          std::vector<lexer::LabelId> all = entry.labels;
          all.insert(all.end(), labels.begin(), labels.end());
          actual.emplace(std::move(all), end);
        }
      }
      std::string missing;
      const std::string bytes = trie_.bytes_of(token);
      const Alternatives expected = expected_alternatives(dwa_, configuration, bytes, missing);
      if (!missing.empty())
        return "token " + std::to_string(token) + ": fork not in the DWA: " + missing;
      if (actual != expected) {
        return "token " + std::to_string(token) + " \"" + bytes + "\" from configuration (state " +
               std::to_string(configuration.state) + ", pending \"" + configuration.pending +
               "\"): DWA has " + render(actual) + ", feed() gives " + render(expected);
      }
    }
    return "";
  }

 private:
  const std::vector<Alternatives>& table(lexer::ForkId fork) {
    auto at = tables_.find(fork);
    if (at == tables_.end()) at = tables_.emplace(fork, dwa_alternatives(dwa_, pool_, fork)).first;
    return at->second;
  }

  std::string render(const Alternatives& alternatives) const {
    std::string text = "{";
    for (const auto& [labels, end] : alternatives) {
      text += " [";
      for (const lexer::LabelId label : labels) text += dwa_.dfa().describe_label(label) + " ";
      text +=
          "] -> fork " + std::to_string(end) + " (" + lexer::describe_fork(dwa_.fork(end)) + ");";
    }
    return text + " }";
  }

  const lexer::TerminalDwa& dwa_;
  const TokenSetPool& pool_;
  const lexer::VocabularyTrie& trie_;
  std::map<lexer::ForkId, std::vector<Alternatives>> tables_;
};

}  // namespace glrmask::testing
