// The wfa on grammars with derivation cycles and hidden left recursion: the compiled grammar is
// normalized (glr/cfg_normalization.h), so the Parser DWA's construction ends, and its masks
// equal the oracle's (on the same normalized automaton, which the session uses too) after every
// viable prefix. The session's language is the written grammar's: the Earley reference of the
// session tests agrees with it on these fixtures. Under the Lark policy nothing is rewritten and
// a cycle is refused with the reason; the refusal beyond the normalization's limits is in
// wfa_engine_test.
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/wfa_engine_comparison.h"
#include "tests/support/wfa_test_support.h"

using namespace glrmask;
using glrmask::testing::compare_on_prefixes;
using glrmask::testing::load_session_fixture;

using glrmask::testing::make_wfa;

namespace {

struct Case {
  const char* fixture;
  const char* alphabet;
  std::size_t max_prefix;
};

// cyclic.lark and hidden_left_recursion.lark are the session fixtures the wfa refused before the
// normalization; the others add a unit cycle, recursion hidden across two rules, and both kinds
// in one grammar.
const Case kCases[] = {
    {"cyclic.lark", "a ", 6},
    {"hidden_left_recursion.lark", "nxy ", 5},
    {"unit_cycle.lark", "xyt ", 5},
    {"indirect_hidden_left_recursion.lark", "nxyz", 5},
    {"nullable_cycles.lark", "apq ", 5},
};

}  // namespace

TEST_CASE("wfa: the normalized grammars with cycles and hidden left recursion = oracle") {
  for (const Case& c : kCases) {
    INFO(c.fixture);
    // The normalization must have found something and rewritten it, or this tests nothing new.
    const auto grammar = load_session_fixture(c.fixture);
    REQUIRE_FALSE(grammar->normalization().found.empty());
    REQUIRE(grammar->normalization().normalized);
    CHECK(compare_on_prefixes(make_wfa, c.fixture, c.alphabet, c.max_prefix) > 10);
  }
}

TEST_CASE("wfa: the session on a normalized grammar still recognizes the written grammar") {
  // The oracle above runs the session, which runs the normalized automaton; this ties that
  // automaton's language back to the rules as written (the Earley reference knows nothing of the
  // normalization: it reads the GrammarModel).
  for (const Case& c : kCases) {
    INFO(c.fixture);
    const auto grammar = load_session_fixture(c.fixture);
    std::size_t accepted = 0;
    for (const std::string& text : glrmask::testing::strings_up_to(c.alphabet, c.max_prefix)) {
      INFO("text \"" << text << "\"");
      glr::Session session(grammar);
      const bool viable = session.try_commit_bytes(text);
      const auto outcome = glrmask::testing::reference_verdict(*grammar, text);
      CHECK(viable == outcome.viable);
      if (viable) CHECK(session.is_accepting() == outcome.accepted);
      accepted += outcome.accepted ? 1 : 0;
    }
    CHECK(accepted > 3);
  }
}

TEST_CASE("wfa: under the Lark policy the rules stay as written, and a cycle is refused") {
  // The resolved table defines the language there, so nothing is rewritten; the table of
  // cyclic.lark still reduces s -> s s forever, and the refusal says why it was not normalized.
  glr::ParseOptions lark;
  lark.policy = glr::ConflictPolicy::kLark;
  const auto grammar = load_session_fixture("cyclic.lark", lark);
  REQUIRE_FALSE(grammar->normalization().normalized);
  try {
    mask::CompiledMask::compile(grammar, glrmask::testing::prefix_vocabulary("a "));
    FAIL("compiled");
  } catch (const Error& error) {
    CHECK_THAT(error.what(), Catch::Contains("never end") &&
                                 Catch::Contains("not normalized: under the Lark policy") &&
                                 Catch::Contains("derivation cycle: s -> s s"));
  }
}
