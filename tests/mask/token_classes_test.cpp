// Token equivalence classes (mask/compiled/token_classes.h) against brute force: on random set
// families (with the signature hash forced to collide, so the exact pass must do all the work), and
// on compiled grammars, where tokens of one class must get the same bit in every oracle mask and
// tokens of different classes must be told apart by some Parser DWA weight.
#include "mask/compiled/token_classes.h"

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/oracle/oracle_engine.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_test_support.h"

using namespace glrmask;
using glrmask::testing::engine_mask;
using glrmask::testing::strings_up_to;
using glrmask::testing::tiny_vocabulary;

namespace {

// The partition by brute force: each token's membership vector over all sets, classes numbered
// by their smallest token (the numbering partition_tokens promises).
std::vector<std::uint32_t> brute_force_classes(std::uint32_t universe,
                                               const std::vector<RoaringBitmap>& sets) {
  std::map<std::vector<bool>, std::uint32_t> class_of_key;
  std::vector<std::uint32_t> classes;
  for (TokenId id = 0; id < universe; ++id) {
    std::vector<bool> key;
    for (const RoaringBitmap& set : sets) key.push_back(set.contains(id));
    const auto [it, inserted] =
        class_of_key.emplace(key, static_cast<std::uint32_t>(class_of_key.size()));
    classes.push_back(it->second);
  }
  return classes;
}

std::vector<std::uint32_t> classes_of(const mask::TokenPartition& partition) {
  std::vector<std::uint32_t> classes;
  for (TokenId id = 0; id < partition.universe(); ++id) classes.push_back(partition.class_of(id));
  return classes;
}

// The members lists agree with class_of, ascending, and cover the universe once.
void check_shape(const mask::TokenPartition& partition) {
  std::size_t covered = 0;
  for (std::uint32_t c = 0; c < partition.num_classes(); ++c) {
    const auto members = partition.members(c);
    REQUIRE(!members.empty());
    CHECK(members.size() == partition.class_size(c));
    for (std::size_t k = 0; k < members.size(); ++k) {
      CHECK(partition.class_of(members[k]) == c);
      if (k > 0) CHECK(members[k - 1] < members[k]);
    }
    if (c > 0) CHECK(partition.members(c - 1).front() < members.front());
    covered += members.size();
  }
  CHECK(covered == partition.universe());
}

// Sets built from hidden blocks, so some tokens really are never separated; a few sets cut
// blocks, and some cover more than half the universe (read as complements).
std::vector<RoaringBitmap> random_family(std::mt19937& rng, std::uint32_t universe) {
  const std::uint32_t blocks = 24;
  std::vector<std::uint32_t> block_of(universe);
  for (std::uint32_t& b : block_of) b = static_cast<std::uint32_t>(rng() % blocks);
  std::vector<RoaringBitmap> sets;
  for (int i = 0; i < 40; ++i) {
    RoaringBitmap set;
    const std::uint32_t chosen = static_cast<std::uint32_t>(rng());
    const bool cut = i % 10 == 9;
    for (TokenId id = 0; id < universe; ++id) {
      const bool in_block = (chosen >> block_of[id]) & 1u;
      if (in_block && (!cut || rng() % 2 == 0)) set.add(id);
    }
    sets.push_back(std::move(set));
  }
  sets.emplace_back();  // an empty set cuts nothing
  RoaringBitmap full;
  full.addRange(0, universe);
  sets.push_back(std::move(full));
  return sets;
}

std::uint64_t colliding_signature(std::uint32_t) {
  return 0;
}
std::uint64_t two_valued_signature(std::uint32_t set_index) {
  return set_index % 2;
}

mask::TokenPartition partition_of(std::uint32_t universe, const std::vector<RoaringBitmap>& sets,
                                  mask::SetSignature signature) {
  std::vector<const RoaringBitmap*> pointers;
  for (const RoaringBitmap& set : sets) pointers.push_back(&set);
  return mask::partition_tokens(universe, pointers, signature);
}

// Exact re-check on a compiled grammar: tokens share a class iff no mask weight separates them.
void check_against_weights(const mask::CompiledMask& compiled,
                           const mask::TokenPartition& partition) {
  const TokenSetPool& pool = compiled.pool();
  const std::vector<TokenSetId> weights = mask::mask_weights(compiled.parser_dwa());
  REQUIRE(!weights.empty());
  const auto universe = static_cast<TokenId>(partition.universe());
  REQUIRE(universe == pool.universe_size());
  for (TokenId a = 0; a < universe; ++a) {
    for (TokenId b = a + 1; b < universe; ++b) {
      bool separated = false;
      for (const TokenSetId w : weights)
        if (pool.contains(w, a) != pool.contains(w, b)) separated = true;
      INFO("tokens " << a << " and " << b);
      CHECK(separated == (partition.class_of(a) != partition.class_of(b)));
    }
  }
}

// Every class's members share their bit in `mask`; returns whether the mask separated any two
// classes (set some class and cleared another).
bool check_mask_respects_classes(const DenseMask& mask, const mask::TokenPartition& partition,
                                 const Vocabulary& vocabulary) {
  std::size_t classes_set = 0;
  for (std::uint32_t c = 0; c < partition.num_classes(); ++c) {
    const auto members = partition.members(c);
    const bool bit = mask.test(members.front());
    for (const TokenId id : members) {
      if (mask.test(id) == bit) continue;
      INFO("class " << c << ": token " << members.front() << " \""
                    << vocabulary.bytes(members.front()) << "\" has " << bit << ", token " << id
                    << " \"" << vocabulary.bytes(id) << "\" has " << mask.test(id));
      CHECK(mask.test(id) == bit);
    }
    if (bit) ++classes_set;
  }
  return classes_set > 0 && classes_set < partition.num_classes();
}

}  // namespace

TEST_CASE("token classes equal the brute-force partition of random set families") {
  std::mt19937 rng(12345);
  for (const std::uint32_t universe : {1u, 7u, 130u, 1000u}) {
    INFO("universe " << universe);
    const std::vector<RoaringBitmap> sets = random_family(rng, universe);
    const std::vector<std::uint32_t> expected = brute_force_classes(universe, sets);
    const mask::TokenPartition fast = partition_of(universe, sets, &mask::random_set_signature);
    check_shape(fast);
    CHECK(classes_of(fast) == expected);
    CHECK(fast.signature_collisions() == 0);
    // Every signature equal: the grouping merges everything and the exact pass must split it.
    const mask::TokenPartition forced = partition_of(universe, sets, &colliding_signature);
    check_shape(forced);
    CHECK(classes_of(forced) == expected);
    // Signatures that collide for some sets only.
    CHECK(classes_of(partition_of(universe, sets, &two_valued_signature)) == expected);
    if (universe >= 130) {
      CHECK(forced.signature_collisions() > 0);
      CHECK(fast.num_classes() > 24);            // the cutting sets split blocks
      CHECK(fast.num_classes() < universe / 2);  // and the blocks stay together otherwise
    }
  }
}

TEST_CASE("token classes: bad input and the refinement order") {
  RoaringBitmap outside;
  outside.add(9);
  const std::vector<const RoaringBitmap*> sets = {&outside};
  CHECK_THROWS_WITH(mask::partition_tokens(5, sets),
                    Catch::Contains("set 0") && Catch::Contains("token id 9"));

  RoaringBitmap low, even;
  low.addRange(0, 4);
  for (TokenId id = 0; id < 8; id += 2) even.add(id);
  const std::vector<const RoaringBitmap*> one = {&low}, two = {&low, &even};
  const mask::TokenPartition coarse = mask::partition_tokens(8, one);
  const mask::TokenPartition fine = mask::partition_tokens(8, two);
  CHECK(coarse.num_classes() == 2);
  CHECK(fine.num_classes() == 4);  // {0,2} {1,3} {4,6} {5,7}
  CHECK(std::vector<TokenId>(fine.members(1).begin(), fine.members(1).end()) ==
        std::vector<TokenId>{1, 3});
  CHECK(mask::refines(fine, coarse));
  CHECK(!mask::refines(coarse, fine));
  CHECK(mask::refines(fine, fine));
  CHECK_THROWS_WITH(mask::refines(fine, mask::partition_tokens(9, one)),
                    Catch::Contains("8") && Catch::Contains("9"));
}

TEST_CASE("token classes of small grammars: one bit per class in every oracle mask") {
  std::size_t lexer_pairs_committed = 0, mask_pairs_diverging = 0;
  struct Case {
    const char* fixture;
    const char* alphabet;
    std::size_t max_prefix;
  };
  for (const Case& c :
       {Case{"ambiguous_sum.lark", "12+ ", 5}, Case{"keyword_ties.lark", "ifa= ", 4},
        Case{"fallback_dots.lark", "a. ", 6}, Case{"ignored_tie.lark", "a# ;", 5},
        Case{"epsilon_rules.lark", "xyz ", 5}}) {
    INFO("fixture " << c.fixture);
    const auto grammar = glrmask::testing::load_session_fixture(c.fixture);
    // As in the engine tests: every string of one or two alphabet bytes and the runs of three.
    std::vector<std::string> tokens;
    const std::string alphabet = c.alphabet;
    for (const std::string& s : strings_up_to(alphabet, 2))
      if (!s.empty()) tokens.push_back(s);
    for (const char ch : alphabet) tokens.push_back(std::string(3, ch));
    const Vocabulary vocabulary = tiny_vocabulary(tokens);
    const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
    const mask::TokenPartition partition = mask::mask_classes(*compiled);
    check_shape(partition);
    check_against_weights(*compiled, partition);
    // The grammar merges something, and tells something apart.
    CHECK(partition.num_classes() < vocabulary.size());
    CHECK(partition.num_classes() > 2);
    // The lexer's classes (EOS alone) refine the mask's: the Parser DWA's weights are unions
    // of Terminal DWA weights and {EOS}.
    const mask::TokenPartition lexer = mask::lexer_classes(*compiled, vocabulary.eos());
    check_shape(lexer);
    CHECK(mask::refines(lexer, partition));
    CHECK(lexer.num_classes() >= partition.num_classes());
    // EOS and the other special token: in different classes (EOS is allowed after a sentence).
    const TokenId eos = *vocabulary.eos();
    CHECK(partition.class_of(eos) != partition.class_of(eos + 1));

    mask::OracleEngine oracle(vocabulary, {.sequential = true});
    std::size_t prefixes = 0, separating = 0;
    for (const std::string& prefix : strings_up_to(alphabet, c.max_prefix)) {
      glr::Session session(grammar, &vocabulary);
      if (!session.try_commit_bytes(prefix)) continue;
      INFO("prefix \"" << prefix << "\"");
      const DenseMask mask = engine_mask(oracle, session, vocabulary);
      if (check_mask_respects_classes(mask, partition, vocabulary)) ++separating;
      ++prefixes;
      // Lexer classes are interchangeable for commit too: the token's successor behaves alike.
      // Mask classes need not be (counted across all fixtures below).
      if (prefix.size() + 1 >= c.max_prefix) continue;
      for (const mask::TokenPartition* classes : {&lexer, &partition}) {
        for (std::uint32_t k = 0; k < classes->num_classes(); ++k) {
          const auto members = classes->members(k);
          if (members.size() < 2 || !mask.test(members.front()) || members.front() == eos) continue;
          glr::Session first = session;
          first.commit(members.front());
          const DenseMask after_first = engine_mask(oracle, first, vocabulary);
          for (const TokenId other : members.subspan(1)) {
            glr::Session next = session;
            next.commit(other);
            const bool same = engine_mask(oracle, next, vocabulary) == after_first;
            if (classes == &lexer) {
              INFO("lexer class of \"" << vocabulary.bytes(members.front()) << "\" and \""
                                       << vocabulary.bytes(other) << "\"");
              CHECK(same);
              ++lexer_pairs_committed;
            } else if (!same) {
              ++mask_pairs_diverging;
            }
          }
        }
      }
    }
    CHECK(prefixes > 5);
    CHECK(separating > 0);
  }
  CHECK(lexer_pairs_committed > 20);
  // A mask class is not a congruence class: e.g. an identifier and a keyword's first letter.
  CHECK(mask_pairs_diverging > 0);
}

TEST_CASE("token classes with a real tokenizer: exact and one bit per class at every step") {
  if (!glrmask::testing::require_tokenizer("llama2")) return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama2"));
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama2"));
  const auto grammar = glrmask::testing::compile_lark(R"(
    ?start: value
    ?value: object | array | STRING | NUMBER | "true" | "false" | "null"
    array: "[" [value ("," value)*] "]"
    object: "{" [pair ("," pair)*] "}"
    pair: STRING ":" value
    STRING: /"([^"\\]|\\.)*"/
    NUMBER: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/
    %ignore /[ \n]+/
  )");
  const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
  const mask::TokenPartition partition = mask::mask_classes(*compiled);
  check_shape(partition);
  CHECK(partition.signature_collisions() == 0);

  // Exact: the same partition as grouping tokens by their membership over all weights.
  const std::vector<TokenSetId> weights = mask::mask_weights(compiled->parser_dwa());
  std::vector<RoaringBitmap> sets;
  for (const TokenSetId w : weights) sets.push_back(compiled->pool().get(w));
  const auto universe = static_cast<std::uint32_t>(vocabulary.size());
  CHECK(classes_of(partition) == brute_force_classes(universe, sets));
  CHECK(classes_of(partition_of(universe, sets, &colliding_signature)) == classes_of(partition));
  CHECK(partition.num_classes() * 20 < vocabulary.size());  // a JSON grammar merges a lot

  const mask::TokenPartition lexer = mask::lexer_classes(*compiled, vocabulary.eos());
  CHECK(mask::refines(lexer, partition));

  mask::OracleEngine oracle(vocabulary);
  const std::vector<TokenId> ids = encoder.encode(R"({"a": [1, -2.5e3, "x\"y"], "b": {}})");
  glr::Session session(grammar, &vocabulary);
  std::size_t separating = 0;
  for (std::size_t step = 0; step <= ids.size(); ++step) {
    INFO("step " << step);
    const DenseMask mask = engine_mask(oracle, session, vocabulary);
    if (check_mask_respects_classes(mask, partition, vocabulary)) ++separating;
    if (step == ids.size()) {
      CHECK(mask.test(*vocabulary.eos()));
      break;
    }
    REQUIRE(mask.test(ids[step]));
    session.commit(ids[step]);
  }
  CHECK(separating == ids.size() + 1);
}
