// The cache of entries: what it returns must be exactly what was made of TerminalDwa::enter for
// the same configuration, whatever collided in its slots before, and configurations that do not
// fit a slot must stay uncached rather than be truncated.
#include "mask/cache/lexer_entry_cache.h"

#include <catch2/catch.hpp>
#include <string>
#include <unordered_set>
#include <vector>

#include "lexer/runtime/lexer_configuration.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lexer/terminal_dwa/terminal_dwa_builder.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/token_set/token_set.h"
#include "tests/support/terminal_dwa_test_support.h"

namespace glrmask::mask {
namespace {

using lexer::DwaEntry;
using lexer::LexerConfiguration;

// Fall-back (1. / 1.5), an operator that extends, a keyword beside its identifier, strings and a
// comment: configurations with pending bytes, accepted prefixes and several forks.
constexpr std::string_view kGrammar = R"(
start: item*
item: NAME | NUMBER | FLOAT | STRING | "if" | "+" | "++" | "." | "..."
NAME: /[a-z]+/
NUMBER: /[0-9]+/
FLOAT: /[0-9]+\.[0-9]+/
STRING: /"[^"]*"/
COMMENT: /\/\*(.|\n)*?\*\//
WS: /[ \n]+/
%ignore WS
%ignore COMMENT
)";

struct EntryCacheFixture {
  EntryCacheFixture()
      : dfa(testing::dfa_from_lark(kGrammar)),
        texts({"a", "i",  "f",  "if",   " if",  "1", "1.", "1.5", ".",    "..",           "...",
               "+", "++", "\"", "\"ab", "ab\"", " ", "/*", "*/",  "/* c", "xyzxyzxyzxyz", "*"}),
        trie(make_trie(texts)),
        pool(static_cast<uint32_t>(texts.size())),
        dwa(lexer::build_terminal_dwa(dfa, trie, pool)) {}

  static lexer::VocabularyTrie make_trie(const std::vector<std::string>& texts) {
    std::vector<lexer::VocabularyEntry> entries;
    for (size_t i = 0; i < texts.size(); ++i)
      entries.push_back({static_cast<TokenId>(i), texts[i]});
    return lexer::VocabularyTrie::build(entries, static_cast<uint32_t>(texts.size()));
  }

  // Every configuration the lexer reaches from the start in up to `depth` tokens.
  std::vector<LexerConfiguration> reachable(int depth) const {
    std::unordered_set<LexerConfiguration, lexer::LexerConfigurationHash> seen = {
        lexer::initial_configuration(dfa)};
    std::vector<LexerConfiguration> all(seen.begin(), seen.end());
    std::vector<LexerConfiguration> layer = all;
    for (int d = 0; d < depth; ++d) {
      std::vector<LexerConfiguration> next;
      for (const LexerConfiguration& configuration : layer) {
        for (const std::string& token : texts) {
          LexerConfiguration after = configuration;
          std::vector<lexer::EmittedLexeme> out;
          if (lexer::feed(dfa, after, token, out)) continue;
          if (seen.insert(after).second) next.push_back(after);
        }
      }
      all.insert(all.end(), next.begin(), next.end());
      layer = std::move(next);
    }
    return all;
  }

  lexer::LexerDfa dfa;
  std::vector<std::string> texts;
  lexer::VocabularyTrie trie;
  TokenSetPool pool;
  lexer::TerminalDwa dwa;
};

// What the engine stores, with the fork standing in for its start state (the cache does not
// look inside), and every fourth entry marked as early to see the flag kept.
std::vector<LexerEntryCache::Entry> made_entries(const std::vector<DwaEntry>& entries) {
  std::vector<LexerEntryCache::Entry> made;
  for (const DwaEntry& entry : entries) {
    const auto one = LexerEntryCache::make_entry(mask::DwaStateId{entry.fork}, entry.labels,
                                                 entry.fork % 4 == 0);
    if (!one) return {};
    made.push_back(*one);
  }
  return made;
}

bool same_entries(std::span<const LexerEntryCache::Entry> cached,
                  const std::vector<DwaEntry>& expected) {
  if (cached.size() != expected.size()) return false;
  for (size_t i = 0; i < cached.size(); ++i) {
    const auto labels = cached[i].early_labels();
    if (cached[i].start != mask::DwaStateId{expected[i].fork}) return false;
    if (cached[i].early != (expected[i].fork % 4 == 0)) return false;
    if (!std::equal(labels.begin(), labels.end(), expected[i].labels.begin(),
                    expected[i].labels.end()))
      return false;
  }
  return true;
}

bool fits(const LexerConfiguration& configuration, const std::vector<DwaEntry>& entries) {
  if (configuration.pending.size() > LexerEntryCache::kMaxPending) return false;
  if (entries.size() > LexerEntryCache::kMaxEntries) return false;
  for (const DwaEntry& entry : entries)
    if (entry.labels.size() > LexerEntryCache::kMaxLabels) return false;
  return true;
}

TEST_CASE("LexerEntryCache returns exactly the entries enter() gives, whatever collided",
          "[wfa][lexer_entry_cache]") {
  const EntryCacheFixture fixture;
  const std::vector<LexerConfiguration> configurations = fixture.reachable(3);
  REQUIRE(configurations.size() > 20);

  // The fixture must exercise what the cache keys on: pending bytes, accepted prefixes, several
  // entries and early labels; otherwise the comparison below would prove little.
  bool any_pending = false, any_accepted = false, any_several = false, any_labels = false;
  for (const LexerConfiguration& configuration : configurations) {
    const std::vector<DwaEntry> entries = fixture.dwa.enter(configuration);
    any_pending |= !configuration.pending.empty();
    any_accepted |= configuration.accepted != lexer::LexerDfa::kNoLabel;
    any_several |= entries.size() > 1;
    for (const DwaEntry& entry : entries) any_labels |= !entry.labels.empty();
  }
  CHECK(any_pending);
  CHECK(any_accepted);
  CHECK(any_several);
  CHECK(any_labels);

  size_t fitting = 0;
  for (const LexerConfiguration& configuration : configurations)
    fitting += fits(configuration, fixture.dwa.enter(configuration));
  REQUIRE(fitting > configurations.size() / 2);

  for (const size_t slots : {size_t{1}, size_t{3}, size_t{1024}, size_t{1} << 20}) {
    CAPTURE(slots);
    LexerEntryCache cache(slots);
    size_t hits = 0;
    // Two rounds: the second finds what the first stored unless a later insert took its slot.
    for (int round = 0; round < 2; ++round) {
      for (const LexerConfiguration& configuration : configurations) {
        CAPTURE(configuration.state, configuration.accepted, configuration.pending);
        const std::vector<DwaEntry> expected = fixture.dwa.enter(configuration);
        if (const auto cached = cache.find(configuration)) {
          ++hits;
          CHECK(same_entries(*cached, expected));
          continue;
        }
        const std::vector<LexerEntryCache::Entry> made = made_entries(expected);
        const bool made_all = made.size() == expected.size();
        CHECK((made_all || (made.empty() && !fits(configuration, expected))));
        if (!made_all) continue;
        const auto stored = cache.insert(configuration, made);
        CHECK(stored.has_value() == fits(configuration, expected));
        if (!stored) continue;
        CHECK(same_entries(*stored, expected));
        const auto found = cache.find(configuration);
        REQUIRE(found.has_value());
        CHECK(same_entries(*found, expected));
      }
    }
    // With far more slots than configurations, nearly every one that fits is found again in the
    // second round (the few missing share a slot with a later one).
    if (slots == (size_t{1} << 20)) CHECK(hits + 4 >= fitting);
    if (slots == 1) CHECK(hits <= 1);
  }
}

TEST_CASE("LexerEntryCache leaves configurations with long pending bytes uncached",
          "[wfa][lexer_entry_cache]") {
  const EntryCacheFixture fixture;
  LexerConfiguration inside_comment = lexer::initial_configuration(fixture.dfa);
  std::vector<lexer::EmittedLexeme> out;
  REQUIRE_FALSE(lexer::feed(fixture.dfa, inside_comment, "/* xyzxyzxyzxyzxyzxyzxyzxyz", out));
  REQUIRE(inside_comment.pending.size() > LexerEntryCache::kMaxPending);
  const std::vector<DwaEntry> entries = fixture.dwa.enter(inside_comment);
  REQUIRE_FALSE(entries.empty());

  LexerEntryCache cache(16);
  CHECK_FALSE(cache.insert(inside_comment, made_entries(entries)).has_value());
  CHECK_FALSE(cache.find(inside_comment).has_value());

  // Its first 24 bytes are a different configuration and must not be mistaken for it.
  LexerConfiguration prefix = inside_comment;
  prefix.pending.resize(LexerEntryCache::kMaxPending);
  LexerConfiguration shorter = lexer::initial_configuration(fixture.dfa);
  REQUIRE_FALSE(lexer::feed(fixture.dfa, shorter, prefix.pending, out));
  REQUIRE(cache.insert(shorter, made_entries(fixture.dwa.enter(shorter))).has_value());
  CHECK_FALSE(cache.find(inside_comment).has_value());
}

}  // namespace
}  // namespace glrmask::mask
