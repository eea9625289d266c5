// Helpers for the Terminal DWA tests: grammars from Lark text, and the cross-check of the DWA
// against the deterministic lexer (feed()) token by token.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lexer/regex/grammar_terminals.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/runtime/lexer_configuration.h"
#include "lexer/runtime/lexer_fork.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lexer/terminal_dwa/terminal_dwa_builder.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/token_set/token_set.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/test_support.h"

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

// Configurations of the SynCode grammars (the Terminal DWA tests on real data).

// The lexer DFA of SynCode's grammar `name` (json_grammar, go_grammar, ...) in the data folder.
inline lexer::LexerDfa syncode_dfa(const std::string& name) {
  return lexer::compile_lexer_dfa(lexer::terminal_specs(
      load_lark_file(data_dir() / "grammars" / "syncode" / (name + ".lark"))));
}

// The lexer's configuration after `bytes` from the start (which it must not reject).
inline lexer::LexerConfiguration after(const lexer::LexerDfa& dfa, std::string_view bytes) {
  lexer::LexerConfiguration configuration = lexer::initial_configuration(dfa);
  std::vector<lexer::EmittedLexeme> out;
  REQUIRE_FALSE(lexer::feed(dfa, configuration, bytes, out));
  return configuration;
}

// The one label the lexer gives `lexeme` from the start.
inline lexer::LabelId lone_label(const lexer::LexerDfa& dfa, std::string_view lexeme) {
  lexer::LexerConfiguration configuration = lexer::initial_configuration(dfa);
  std::vector<lexer::EmittedLexeme> out;
  REQUIRE_FALSE(lexer::feed(dfa, configuration, lexeme, out));
  REQUIRE_FALSE(lexer::finish(dfa, configuration, out));
  REQUIRE(out.size() == 1);
  return out[0].label;
}

// Configurations between the tokens of `ids`, at most `count`, spread over the text; the ones
// with bytes pending after an accepted match are all kept (they are the rare, delicate ones).
inline std::vector<lexer::LexerConfiguration> configurations_along(const lexer::LexerDfa& dfa,
                                                                   const Vocabulary& vocabulary,
                                                                   const std::vector<TokenId>& ids,
                                                                   size_t count) {
  std::vector<lexer::LexerConfiguration> all;
  std::unordered_set<lexer::LexerConfiguration, lexer::LexerConfigurationHash> seen;
  lexer::LexerConfiguration configuration = lexer::initial_configuration(dfa);
  std::vector<lexer::EmittedLexeme> out;
  for (const TokenId id : ids) {
    if (lexer::feed(dfa, configuration, vocabulary.bytes(id), out))
      break;  // the grammar rejects it
    if (seen.insert(configuration).second) all.push_back(configuration);
  }
  std::vector<lexer::LexerConfiguration> picked;
  for (size_t i = 0; i < all.size(); ++i) {
    const bool pending = all[i].accepted != lexer::LexerDfa::kNoLabel && !all[i].pending.empty();
    if (pending || i % std::max<size_t>(1, all.size() / count) == 0) picked.push_back(all[i]);
  }
  return picked;
}

// Every token from each of `configurations` agrees with feed() (ConfigurationChecker).
inline void check_all(const lexer::TerminalDwa& dwa, const TokenSetPool& pool,
                      const lexer::VocabularyTrie& trie,
                      const std::vector<lexer::LexerConfiguration>& configurations) {
  ConfigurationChecker checker(dwa, pool, trie);
  for (const lexer::LexerConfiguration& configuration : configurations) {
    const std::string mismatch = checker.check(configuration);
    INFO(mismatch);
    REQUIRE(mismatch.empty());
  }
}

// SynCode's grammar `grammar` (json_grammar, go_grammar, ...) from the data folder against a real
// tokenizer: the lexer DFA, the vocabulary and its trie, and the Terminal DWA built from them.
// Not movable: the DWA points at the DFA.
struct SyncodeTerminalDwa {
  SyncodeTerminalDwa(const std::string& grammar, const std::string& tokenizer)
      : dfa(syncode_dfa(grammar)),
        vocabulary(Vocabulary::load(resolve_tokenizer(tokenizer))),
        trie(lexer::VocabularyTrie::build(vocabulary)),
        pool(static_cast<uint32_t>(vocabulary.size())),
        dwa(lexer::build_terminal_dwa(dfa, trie, pool)) {}
  SyncodeTerminalDwa(const SyncodeTerminalDwa&) = delete;
  SyncodeTerminalDwa& operator=(const SyncodeTerminalDwa&) = delete;

  // Every token from each of `configurations` agrees with feed().
  void check_all(const std::vector<lexer::LexerConfiguration>& configurations) const {
    testing::check_all(dwa, pool, trie, configurations);
  }
  // The first token whose bytes are `bytes` (it must exist).
  TokenId token(std::string_view bytes) const {
    const auto found = std::find_if(trie.tokens().begin(), trie.tokens().end(),
                                    [&](TokenId t) { return vocabulary.bytes(t) == bytes; });
    REQUIRE(found != trie.tokens().end());
    return *found;
  }

  const lexer::LexerDfa dfa;
  const Vocabulary vocabulary;
  const lexer::VocabularyTrie trie;
  TokenSetPool pool;
  const lexer::TerminalDwa dwa;
};

}  // namespace glrmask::testing
