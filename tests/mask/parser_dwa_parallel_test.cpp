// The Parser DWA built by several threads: the shared interner under concurrent use, and the
// automaton itself, which must be the same (states numbered alike, transitions on the same reads
// to the same targets with equal weights) for every thread count. The real grammars are in
// wfa_parser_dwa_parallel_corpus_test.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "lib/core/concurrent_array_interner.h"
#include "lib/core/error.h"
#include "mask/compiled/compiled_mask.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/parser_dwa_test_support.h"
#include "tests/support/wfa_engine_comparison.h"

using namespace glrmask;
using glrmask::testing::compile_with_threads;
using glrmask::testing::load_session_fixture;
using glrmask::testing::prefix_vocabulary;
using glrmask::testing::require_same_parser_dwa;

TEST_CASE("ConcurrentArrayInterner: equal arrays get one id from any thread") {
  ConcurrentArrayInterner<std::uint32_t> interner;
  const auto hash = [](const std::vector<std::uint32_t>& values) {
    std::uint64_t h = values.size();
    for (const std::uint32_t v : values) h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
    return h;
  };
  // Array k is {k, k+1, k+2 mod 7}; four threads intern the same 3000 arrays in different orders.
  constexpr std::uint32_t kArrays = 3000;
  const auto array_of = [](std::uint32_t k) { return std::vector<std::uint32_t>{k, k + 1, k % 7}; };
  std::vector<std::vector<std::uint32_t>> ids(4, std::vector<std::uint32_t>(kArrays));
  {
    std::vector<std::jthread> threads;
    for (std::uint32_t t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (std::uint32_t i = 0; i < kArrays; ++i) {
          const std::uint32_t k = t % 2 == 0 ? i : kArrays - 1 - i;
          const std::vector<std::uint32_t> values = array_of(k);
          ids[t][k] = interner.intern(values, hash(values));
        }
      });
  }
  for (std::uint32_t t = 1; t < 4; ++t) CHECK(ids[t] == ids[0]);
  std::vector<std::uint32_t> sorted = ids[0];
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());  // distinct ids
  CHECK(sorted.front() > 0);                                                // 0 is the empty array
  for (std::uint32_t k = 0; k < kArrays; ++k) REQUIRE(interner[ids[0][k]] == array_of(k));
  CHECK(interner.size() == kArrays + 1);
  const std::vector<std::uint32_t> none;
  CHECK(interner.intern(none, hash(none)) == 0);
  // Arrays whose hashes collide are still told apart by their contents.
  const std::vector<std::uint32_t> a{1, 2}, b{2, 1};
  CHECK(interner.intern(a, 42) != interner.intern(b, 42));
  CHECK(interner.intern(a, 42) == interner.intern(a, 42));
}

TEST_CASE("Parser DWA: the same automaton from one thread and from several, on small grammars") {
  struct Case {
    const char* fixture;
    const char* alphabet;
    glr::ParseOptions options;
  };
  glr::ParseOptions skippable;
  skippable.skippable = {"EOS"};
  const std::vector<Case> cases = {
      {"ambiguous_sum.lark", "12+ ", {}},
      {"keyword_ties.lark", "ifa= ", {}},
      {"fallback_dots.lark", "a. ", {}},
      {"hidden_right_recursion.lark", "ab ", {}},
      {"epsilon_rules.lark", "xyz ", {}},
      // Guarded work: a skippable EOS whose fate the states below decide.
      {"skippable_eos.lark", "a{}\n; ", skippable},
      {"skippable_eos_nested.lark", "a(+)\n{}", skippable},
  };
  for (const Case& c : cases) {
    INFO(c.fixture);
    const auto grammar = load_session_fixture(c.fixture, c.options);
    const Vocabulary vocabulary = prefix_vocabulary(c.alphabet);
    const auto one = compile_with_threads(grammar, vocabulary, 1);
    REQUIRE(one->parser_dwa().stats().build_threads == 1);
    if (std::string(c.fixture) == "skippable_eos_nested.lark")
      CHECK(one->parser_dwa().stats().guarded_states > 0);
    for (const std::size_t threads : {2, 3, 8}) {
      INFO(threads << " threads");
      const auto several = compile_with_threads(grammar, vocabulary, threads);
      // More threads than LR states leaves some without reads; the count is capped there.
      CHECK(several->parser_dwa().stats().build_threads ==
            std::min<std::size_t>(threads, grammar->table().num_states()));
      require_same_parser_dwa(*one, *several);
      CHECK(several->parser_dwa_digest() == one->parser_dwa_digest());
    }
  }
  // The digest tells automata apart: other grammars, and one grammar against other vocabularies.
  std::vector<std::uint64_t> digests;
  for (const Case& c : cases)
    digests.push_back(compile_with_threads(load_session_fixture(c.fixture, c.options),
                                           prefix_vocabulary(c.alphabet), 1)
                          ->parser_dwa_digest());
  digests.push_back(
      compile_with_threads(load_session_fixture("ambiguous_sum.lark"), prefix_vocabulary("12+"), 1)
          ->parser_dwa_digest());
  std::sort(digests.begin(), digests.end());
  CHECK(std::adjacent_find(digests.begin(), digests.end()) == digests.end());
}

TEST_CASE("Parser DWA: an error in one of several threads reaches the caller") {
  // Beyond the normalization's limits the reductions never end (wfa_engine_test has the
  // single-threaded case); whichever worker meets them first, the build must stop and say so.
  const auto grammar = glrmask::testing::compile_lark(
      "start: s\ns: n n n n n n n n n s \"x\" | \"y\"\nn: \"n\" |\n%ignore \" \"\n");
  REQUIRE_FALSE(grammar->normalization().normalized);
  for (const std::size_t threads : {2, 4}) {
    INFO(threads << " threads");
    try {
      compile_with_threads(grammar, prefix_vocabulary("nxy "), threads);
      FAIL("compiled");
    } catch (const Error& error) {
      CHECK_THAT(error.what(), Catch::Contains("never end"));
    }
  }
}
