// Compiled artifacts: a written and re-read compilation gives the same masks as the original,
// and every way an artifact can be wrong (truncated, corrupt, another grammar, other parse
// options, another tokenizer, not an artifact at all) is refused with an error that says which.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/error.h"
#include "lib/file_io.h"
#include "lib/lark_loader.h"
#include "tests/glr_session_support.h"
#include "tests/test_support.h"
#include "tests/wfa_test_support.h"
#include "wfa/mask_artifact.h"
#include "wfa/wfa_engine.h"

using namespace glrmask;
using glrmask::testing::engine_mask;
using glrmask::testing::tiny_vocabulary;

namespace {

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("glrmask_artifact_test_" + name);
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

struct Fixture {
  std::filesystem::path grammar_path =
      glrmask::testing::fixtures_dir() / "glr_session" / "keyword_ties.lark";
  Vocabulary vocabulary = tiny_vocabulary({"i", "f", "if", "a", "=", " ", "ifa", "= ", "a="});
  std::shared_ptr<const glr::CompiledGrammar> grammar =
      glr::CompiledGrammar::load_lark(grammar_path);
};

}  // namespace

TEST_CASE("artifact: written and read back, the wfa engine gives the same masks") {
  Fixture f;
  const auto compiled = wfa::CompiledMask::compile(f.grammar, f.vocabulary);
  const auto path = temp_path("roundtrip");
  const std::size_t bytes = wfa::write_mask_artifact(*compiled, f.vocabulary, path);
  CHECK(bytes == std::filesystem::file_size(path));
  const auto loaded = wfa::read_mask_artifact(path, f.grammar, f.vocabulary);
  CHECK(loaded->parser_dwa().num_states() == compiled->parser_dwa().num_states());
  CHECK(loaded->terminal_dwa().num_forks() == compiled->terminal_dwa().num_forks());
  CHECK(loaded->parser_dwa().stats().transitions == compiled->parser_dwa().stats().transitions);
  wfa::WfaEngine original(compiled, f.vocabulary);
  wfa::WfaEngine reloaded(loaded, f.vocabulary);
  std::size_t compared = 0;
  for (const std::string& prefix : glrmask::testing::strings_up_to("ifa= ", 4)) {
    glr::Session session(f.grammar, &f.vocabulary);
    if (!session.try_commit_bytes(prefix)) continue;
    INFO("prefix \"" << prefix << "\"");
    CHECK(engine_mask(reloaded, session, f.vocabulary) ==
          engine_mask(original, session, f.vocabulary));
    ++compared;
  }
  CHECK(compared > 20);
  std::filesystem::remove(path);
}

TEST_CASE("artifact: truncated, corrupt and foreign files are refused with the reason") {
  Fixture f;
  const auto compiled = wfa::CompiledMask::compile(f.grammar, f.vocabulary);
  const auto path = temp_path("damaged");
  wfa::write_mask_artifact(*compiled, f.vocabulary, path);
  const std::string good = read_text_file(path);
  auto load = [&] { return wfa::read_mask_artifact(path, f.grammar, f.vocabulary); };

  write_bytes(path, good.substr(0, good.size() / 2));
  CHECK_THROWS_WITH(load(), Catch::Contains("checksum") && Catch::Contains(path.string()));
  std::string flipped = good;
  flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x40);
  write_bytes(path, flipped);
  CHECK_THROWS_WITH(load(), Catch::Contains("corrupt"));
  write_bytes(path, "{\"not\": \"an artifact\"}");
  CHECK_THROWS_WITH(load(), Catch::Contains("not a glrmask artifact"));
  std::filesystem::remove(path);
  CHECK_THROWS_WITH(load(), Catch::Contains("cannot open"));

  // Intact, but built from something else.
  write_bytes(path, good);
  CHECK_THROWS_WITH(
      wfa::read_mask_artifact(path,
                              glr::CompiledGrammar::load_lark(glrmask::testing::fixtures_dir() /
                                                              "glr_session" / "ambiguous_sum.lark"),
                              f.vocabulary),
      Catch::Contains("another grammar"));
  glr::ParseOptions lark;
  lark.policy = glr::ConflictPolicy::kLark;
  CHECK_THROWS_WITH(wfa::read_mask_artifact(
                        path, glr::CompiledGrammar::load_lark(f.grammar_path, lark), f.vocabulary),
                    Catch::Contains("another grammar"));
  const Vocabulary other = tiny_vocabulary({"i", "f", "if", "a", "=", " ", "ifa", "= ", "=a"});
  CHECK_THROWS_WITH(wfa::read_mask_artifact(path, f.grammar, other),
                    Catch::Contains("compiled for the tokenizer"));
  std::filesystem::remove(path);
}

TEST_CASE("artifact: the fingerprints see every input that changes the automaton") {
  auto fingerprint = [](std::string_view text, const glr::ParseOptions& options) {
    return wfa::grammar_fingerprint(
        *glr::CompiledGrammar::compile(load_lark_text(text, "fingerprint.lark"), options));
  };
  glr::ParseOptions options;
  const auto base = fingerprint("start: \"a\" | B\nB: \"b\"\n", options);
  CHECK(fingerprint("start: \"a\" | B\nB: \"c\"\n", options) != base);
  CHECK(fingerprint("start: \"a\" | B\nB: \"b\"\n", options) == base);
  options.policy = glr::ConflictPolicy::kLark;
  CHECK(fingerprint("start: \"a\" | B\nB: \"b\"\n", options) != base);
  glr::ParseOptions skippable;
  skippable.skippable = {"B"};
  CHECK(fingerprint("start: \"a\" | B\nB: \"b\"\n", skippable) != base);
  const Vocabulary a = tiny_vocabulary({"x", "y"});
  const Vocabulary b = tiny_vocabulary({"x", "z"});
  CHECK(wfa::vocabulary_fingerprint(a) != wfa::vocabulary_fingerprint(b));
  CHECK(wfa::vocabulary_fingerprint(a) == wfa::vocabulary_fingerprint(tiny_vocabulary({"x", "y"})));
}
