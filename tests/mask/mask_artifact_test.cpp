// Compiled artifacts: a written and re-read compilation is the same automaton with the same
// token sets and gives the same masks as the original (a fixture grammar, and SynCode's JSON
// grammar with Llama-3), and every way an artifact can be wrong (truncated, corrupt, another
// grammar, other parse options, another tokenizer, another format version, not an artifact at
// all) is refused with an error that says which. The token sets are checked on first use, not at
// load: a corrupt or malformed set (behind a valid file checksum, or behind valid checksums of
// both the file and the set) raises an error naming it the first time it is read, every time.
#include "mask/artifact/mask_artifact.h"

#include <fmt/format.h>
#include <roaring/roaring.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "glr/session.h"
#include "lib/core/binary_io.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/token_set/frozen.h"
#include "lib/tokenizer/encoder.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/support/artifact_reseal.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/parser_dwa_test_support.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"
#include "tests/support/wfa_test_support.h"

using namespace glrmask;
using glrmask::testing::artifact_trailer_field;
using glrmask::testing::engine_mask;
using glrmask::testing::reseal_artifact_file;
using glrmask::testing::reseal_artifact_images;
using glrmask::testing::tiny_vocabulary;

namespace {

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("glrmask_artifact_test_" + name);
}

// For the tests that rewrite a file thousands of times: a memory file system where there is one,
// so the loop does not wait on the disk.
std::filesystem::path scratch_path(const std::string& name) {
  std::error_code error;
  if (std::filesystem::is_directory("/dev/shm", error))
    return std::filesystem::path("/dev/shm") / ("glrmask_artifact_test_" + name);
  return temp_path(name);
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The loaded automata are the compiled ones, and every weight is the same token set (the loaded
// pool numbers its sets differently, so sets are compared by content).
void require_same_automata(const mask::CompiledMask& loaded, const mask::CompiledMask& compiled) {
  glrmask::testing::require_same_parser_dwa(loaded, compiled);
  CHECK(loaded.parser_dwa_digest() == compiled.parser_dwa_digest());
  REQUIRE(loaded.weight_classes().num_classes() == compiled.weight_classes().num_classes());
  REQUIRE(compiled.weight_classes().num_classes() > 1);
  const mask::ParserDwa& a = loaded.parser_dwa();
  const mask::ParserDwa& b = compiled.parser_dwa();
  for (const mask::DwaStateId state : id_range<mask::DwaStateId>(b.num_states())) {
    const auto ta = a.transitions(state);
    const auto tb = b.transitions(state);
    for (std::size_t i = 0; i < tb.size(); ++i) {
      if (tb[i].weight.is_empty()) continue;
      const std::uint64_t* row_a = loaded.weight_classes().row(ta[i].weight);
      const std::uint64_t* row_b = compiled.weight_classes().row(tb[i].weight);
      REQUIRE(row_a != nullptr);
      REQUIRE(row_b != nullptr);
      REQUIRE(std::equal(row_a, row_a + compiled.weight_classes().row_words(), row_b));
    }
  }
  const lexer::TerminalDwa& ta = loaded.terminal_dwa();
  const lexer::TerminalDwa& tb = compiled.terminal_dwa();
  REQUIRE(ta.num_forks() == tb.num_forks());
  REQUIRE(ta.num_nodes() == tb.num_nodes());
  for (lexer::ForkId fork = 0; fork < tb.num_forks(); ++fork) {
    REQUIRE(ta.fork(fork) == tb.fork(fork));
    REQUIRE(loaded.pool().get(ta.alive(fork)) == compiled.pool().get(tb.alive(fork)));
  }
  for (lexer::DwaNodeId node = 0; node < tb.num_nodes(); ++node) {
    REQUIRE(ta.weights(node).size() == tb.weights(node).size());
    for (std::size_t i = 0; i < tb.weights(node).size(); ++i)
      REQUIRE(loaded.pool().get(ta.weights(node)[i].tokens) ==
              compiled.pool().get(tb.weights(node)[i].tokens));
  }
}

// Reads every token set of `mask` once; returns how many threw (each with its message in
// `errors`).
std::size_t read_every_set(const mask::CompiledMask& mask, std::vector<std::string>& errors) {
  std::size_t threw = 0;
  for (std::uint32_t id = 0; id < mask.pool().distinct_sets(); ++id) {
    try {
      (void)mask.pool().cardinality(TokenSetId{id});
    } catch (const Error& e) {
      ++threw;
      errors.push_back(e.what());
    }
  }
  return threw;
}

// Where the frozen image of `set` lies in the artifact (images start 32-byte aligned).
std::size_t find_image(const std::string& artifact, const RoaringBitmap& set) {
  std::string image(frozen_size(set), '\0');
  write_frozen(set, image.data());
  for (std::size_t at = artifact.find(image); at != std::string::npos;
       at = artifact.find(image, at + 1))
    if (at % kFrozenImageAlignment == 0) return at;
  FAIL("the token set's frozen image is not in the artifact");
  return 0;
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
  const auto compiled = mask::CompiledMask::compile(f.grammar, f.vocabulary);
  const auto path = temp_path("roundtrip");
  const std::size_t bytes = mask::write_mask_artifact(*compiled, f.vocabulary, path);
  CHECK(bytes == std::filesystem::file_size(path));
  const auto loaded = mask::read_mask_artifact(path, f.grammar, f.vocabulary);
  CHECK(loaded->parser_dwa().num_states() == compiled->parser_dwa().num_states());
  CHECK(loaded->terminal_dwa().num_forks() == compiled->terminal_dwa().num_forks());
  CHECK(loaded->parser_dwa().stats().transitions == compiled->parser_dwa().stats().transitions);
  require_same_automata(*loaded, *compiled);
  mask::WfaEngine original(compiled, f.vocabulary);
  mask::WfaEngine reloaded(loaded, f.vocabulary);
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
  const auto compiled = mask::CompiledMask::compile(f.grammar, f.vocabulary);
  const auto path = temp_path("damaged");
  mask::write_mask_artifact(*compiled, f.vocabulary, path);
  const std::string good = read_text_file(path);
  auto load = [&] { return mask::read_mask_artifact(path, f.grammar, f.vocabulary); };

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
  CHECK_THROWS_WITH(mask::read_mask_artifact(
                        path,
                        glr::CompiledGrammar::load_lark(glrmask::testing::fixtures_dir() /
                                                        "glr_session" / "ambiguous_sum.lark"),
                        f.vocabulary),
                    Catch::Contains("another grammar"));
  glr::ParseOptions lark;
  lark.policy = glr::ConflictPolicy::kLark;
  CHECK_THROWS_WITH(mask::read_mask_artifact(
                        path, glr::CompiledGrammar::load_lark(f.grammar_path, lark), f.vocabulary),
                    Catch::Contains("another grammar"));
  const Vocabulary other = tiny_vocabulary({"i", "f", "if", "a", "=", " ", "ifa", "= ", "=a"});
  CHECK_THROWS_WITH(mask::read_mask_artifact(path, f.grammar, other),
                    Catch::Contains("compiled for the tokenizer"));
  std::filesystem::remove(path);
}

TEST_CASE("artifact: the fingerprints see every input that changes the automaton") {
  auto fingerprint = [](std::string_view text, const glr::ParseOptions& options) {
    return mask::grammar_fingerprint(
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
  CHECK(mask::vocabulary_fingerprint(a) != mask::vocabulary_fingerprint(b));
  CHECK(mask::vocabulary_fingerprint(a) ==
        mask::vocabulary_fingerprint(tiny_vocabulary({"x", "y"})));
}

TEST_CASE("artifact: another format version, an empty file and a damaged header are refused") {
  Fixture f;
  const auto compiled = mask::CompiledMask::compile(f.grammar, f.vocabulary);
  const auto path = temp_path("version");
  mask::write_mask_artifact(*compiled, f.vocabulary, path);
  const std::string good = read_text_file(path);
  auto load = [&] { return mask::read_mask_artifact(path, f.grammar, f.vocabulary); };

  std::string old = good;
  const std::uint32_t version = 1;
  std::memcpy(old.data() + 8, &version, sizeof version);  // after the 8-byte magic
  write_bytes(path, old);
  CHECK_THROWS_WITH(load(), Catch::Contains("format version 1, this build reads version " +
                                            std::to_string(mask::kMaskArtifactVersion)));
  write_bytes(path, "");
  CHECK_THROWS_WITH(load(), Catch::Contains("not a glrmask artifact"));
  write_bytes(path, good.substr(0, 11));
  CHECK_THROWS_WITH(load(),
                    Catch::Contains("not a glrmask artifact") || Catch::Contains("truncated"));
  std::filesystem::remove(path);
}

namespace {

// Requires `load` to throw the file checksum's error: kArtifact, naming the file. `what` names the
// damage and the call in the report of a failure.
template <typename Load>
void require_checksum_refusal(const std::string& what, const Load& load,
                              const std::filesystem::path& path) {
  INFO(what);
  try {
    load();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::kArtifact);
    CHECK_THAT(std::string(e.what()),
               Catch::Contains("checksum mismatch") && Catch::Contains(path.string()));
    return;
  }
  FAIL_CHECK("a file damaged under its checksum was not refused");
}

// One byte damaged outside the token set images, before them and after them, is refused with
// the checksum's error by every way a load hands out a result or raises an error, the checksum
// computed on a second thread (`second_thread_bytes` 0) or on the caller's thread. An artifact
// reaches the default threshold (a MiB checked) only for a grammar that takes seconds to compile
// (with Llama-3, SynCode's JSON grammar checks 0.1 MiB, its Go grammar 9.6 MiB after 5 s), so the
// fixture's artifact is given the threshold instead.
void check_checksum_refusals(std::size_t second_thread_bytes, const std::string& name) {
  Fixture f;
  const auto compiled = mask::CompiledMask::compile(f.grammar, f.vocabulary);
  const auto path = temp_path(name);
  // A stored source: bytes that no reader but the checksum checks.
  const std::string source = "the stored source of the checksum test";
  mask::write_artifact(*f.grammar, compiled.get(), f.vocabulary, source, path);
  const std::string good = read_text_file(path);
  const bool on_second_thread = second_thread_bytes == 0;
  auto open = [&] { return mask::ArtifactFile::open(path, second_thread_bytes); };
  auto load_mask = [&] { return open().compiled_mask(f.grammar, f.vocabulary); };
  auto load_grammar = [&] {
    return open().compiled_grammar(f.grammar->grammar(), f.grammar->options());
  };
  {
    const mask::ArtifactFile file = open();
    CHECK(file.checksum_on_second_thread() == on_second_thread);
    CHECK(file.source() == source);
    CHECK(file.compiled_mask(f.grammar, f.vocabulary)->parser_dwa().num_states() ==
          compiled->parser_dwa().num_states());
    CHECK(load_grammar()->table().num_states() == f.grammar->table().num_states());
  }

  // Where the damage goes: the source and the grammar image (each a u64 size, then the bytes)
  // lie before the token set images, the Parser DWA after them.
  const std::size_t at_source = good.find(source);
  const std::size_t at_grammar_image = at_source + source.size() + sizeof(std::uint64_t);
  const std::size_t at_parser_dwa = good.find("PDWA", artifact_trailer_field(good, 1));
  REQUIRE(at_source != std::string::npos);
  REQUIRE(at_grammar_image < artifact_trailer_field(good, 0));
  REQUIRE(at_parser_dwa != std::string::npos);
  auto damage = [&](std::size_t at) {
    std::string bytes = good;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x40);
    write_bytes(path, bytes);
  };
  // A byte of the source: every reader still succeeds, only the checksum tells. Each call has a
  // file of its own, so that each verifies the checksum itself.
  damage(at_source);
  CHECK(open().checksum_on_second_thread() == on_second_thread);
  CHECK(open().source() != source);
  require_checksum_refusal(
      "source: verify_checksum", [&] { open().verify_checksum(); }, path);
  require_checksum_refusal("source: compiled_mask", load_mask, path);
  require_checksum_refusal("source: compiled_grammar", load_grammar, path);
  // The source's size (its high byte): the header's reader fails inside open().
  damage(at_source - 1);
  require_checksum_refusal("source size: open", open, path);
  // The grammar image's tag: its reader fails.
  damage(at_grammar_image);
  require_checksum_refusal("grammar image: compiled_grammar", load_grammar, path);
  require_checksum_refusal("grammar image: compiled_mask", load_mask, path);
  // The Parser DWA's tag, after the token set images.
  damage(at_parser_dwa);
  require_checksum_refusal("Parser DWA: compiled_mask", load_mask, path);
  std::filesystem::remove(path);
}

}  // namespace

TEST_CASE("artifact: damage under the file's checksum is refused, checked on a second thread") {
  check_checksum_refusals(0, "checksum_second_thread");
}

TEST_CASE("artifact: damage under the file's checksum is refused, checked on the caller's thread") {
  check_checksum_refusals(std::numeric_limits<std::size_t>::max(), "checksum_caller_thread");
}

TEST_CASE("artifact: a damaged token set is caught on its first use, not read") {
  Fixture f;
  const auto compiled = mask::CompiledMask::compile(f.grammar, f.vocabulary);
  const auto path = temp_path("token_set");
  mask::write_mask_artifact(*compiled, f.vocabulary, path);
  const std::string good = read_text_file(path);
  auto load = [&] { return mask::read_mask_artifact(path, f.grammar, f.vocabulary); };

  // A stored weight of several tokens (an array container: its values come first in the image).
  std::optional<TokenSetId> chosen;
  for (const mask::ParserDwaTransition& t : compiled->parser_dwa().all_transitions())
    if (!chosen && t.weight != TokenSetPool::full() &&
        compiled->pool().cardinality(t.weight) >= 2 &&
        compiled->pool().get(t.weight).roaring.high_low_container.typecodes[0] ==
            ARRAY_CONTAINER_TYPE_CODE)
      chosen = t.weight;
  REQUIRE(chosen);
  const RoaringBitmap& set = compiled->pool().get(*chosen);
  const std::size_t at = find_image(good, set);
  // The damage behind valid checksums: the set's own and the file's.
  auto damaged = [&](auto&& damage) {
    std::string bytes = good;
    damage(bytes.data() + at);
    REQUIRE(reseal_artifact_images(bytes) > 0);
    REQUIRE(reseal_artifact_file(bytes));
    write_bytes(path, bytes);
  };
  // The load does not read the set; its first use does, and so does every later one. The masks
  // of the wfa engine reach it too: each prefix's mask either is the original's or throws the
  // same error, and some prefix reaches the damaged weight.
  auto caught_on_first_use = [&](const std::string& reason) {
    const auto loaded = load();
    std::vector<std::string> errors;
    CHECK(read_every_set(*loaded, errors) == 1);
    CHECK(read_every_set(*loaded, errors) == 1);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0] == errors[1]);
    CHECK_THAT(errors[0],
               Catch::Contains(path.string()) &&
                   Catch::Contains("byte offset " + std::to_string(at) + ": token set") &&
                   Catch::Contains(reason));
    const auto fresh = load();  // its engine meets the set first
    mask::WfaEngine original(compiled, f.vocabulary);
    mask::WfaEngine reloaded(fresh, f.vocabulary);
    std::size_t refused = 0, same = 0;
    for (const std::string& prefix : glrmask::testing::strings_up_to("ifa= ", 4)) {
      glr::Session session(f.grammar, &f.vocabulary);
      if (!session.try_commit_bytes(prefix)) continue;
      INFO("prefix \"" << prefix << "\"");
      try {
        const DenseMask mask = engine_mask(reloaded, session, f.vocabulary);
        CHECK(mask == engine_mask(original, session, f.vocabulary));
        ++same;
      } catch (const Error& e) {
        CHECK(std::string(e.what()) == errors[0]);
        CHECK(e.code() == ErrorCode::kArtifact);
        ++refused;
      }
    }
    CHECK(refused > 0);
    CHECK(same > 0);
  };

  damaged([](char* image) {  // swap the first two ids
    char first[2];
    std::memcpy(first, image, 2);
    std::memcpy(image, image + 2, 2);
    std::memcpy(image + 2, first, 2);
  });
  caught_on_first_use("is malformed: container 0: an array container is not strictly ascending");
  damaged([&](char* image) {  // the last id beyond the vocabulary, still ascending
    const std::uint16_t beyond = 0xfff0;
    std::memcpy(image + 2 * (set.cardinality() - 1), &beyond, 2);
  });
  caught_on_first_use("is malformed: holds token id 65520, not below the vocabulary size " +
                      std::to_string(f.vocabulary.size()));
  // Another token in the set, well formed: only the set's checksum tells.
  {
    std::string bytes = good;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x01);
    REQUIRE(reseal_artifact_file(bytes));
    write_bytes(path, bytes);
    caught_on_first_use("is corrupt: its checksum does not match");
  }
  // A damaged layout (an unknown container type): the load does not view the set either.
  damaged([&](char* image) { image[frozen_size(set) - 5] = 9; });
  caught_on_first_use("is malformed: CRoaring does not accept");
  // The weights' export records (the last section, after the statistics): one that no longer
  // describes its set's image is refused on that set's first use, before its data is read; one
  // that points outside the image is refused at load.
  {
    const std::size_t tag = good.rfind("RPXE");  // kExportRecordSectionTag, little-endian
    REQUIRE(tag != std::string::npos);
    std::uint64_t records = 0;
    std::memcpy(&records, good.data() + tag + 4, sizeof records);
    REQUIRE(records > 0);
    const std::size_t first = tag + 4 + 8;
    std::uint32_t stored_set = 0, key = 0;
    std::memcpy(&stored_set, good.data() + first + 8, 4);
    std::memcpy(&key, good.data() + first + 12, 4);
    std::string bytes = good;
    key ^= 1;  // the next 65,536 ids: still inside the image
    std::memcpy(bytes.data() + first + 12, &key, 4);
    REQUIRE(reseal_artifact_file(bytes));
    write_bytes(path, bytes);
    const auto loaded = load();
    std::vector<std::string> errors;
    CHECK(read_every_set(*loaded, errors) == 1);
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0], Catch::Contains(fmt::format("the export records stored for token set {} "
                                                      "do not describe its image",
                                                      stored_set)));
    bytes = good;
    const std::uint64_t far = std::uint64_t{1} << 40;
    std::memcpy(bytes.data() + first, &far, 8);
    REQUIRE(reseal_artifact_file(bytes));
    write_bytes(path, bytes);
    CHECK_THROWS_WITH(load(), Catch::Contains("export record 0") &&
                                  Catch::Contains("its data lies outside the set's image"));
  }
  // A weight's class row emptied (the last section before the statistics; the checksum resealed):
  // the dense-mask cache would take that weight's unions for other ones.
  {
    const std::size_t tag = good.rfind("WCWS");
    REQUIRE(tag != std::string::npos);
    std::uint64_t ids = 0;
    std::memcpy(&ids, good.data() + tag + 8, sizeof ids);
    REQUIRE(ids > 0);
    const std::size_t first_word = tag + 8 + 8 + 4 * ids + 8;
    const std::size_t row_bytes = 8 * compiled->weight_classes().row_words();
    std::string bytes = good;
    std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(first_word),
              bytes.begin() + static_cast<std::ptrdiff_t>(first_word + row_bytes), '\0');
    REQUIRE(reseal_artifact_file(bytes));
    write_bytes(path, bytes);
    CHECK_THROWS_WITH(load(), Catch::Contains(path.string()) &&
                                  Catch::Contains("the class row of token set") &&
                                  Catch::Contains("is malformed"));
  }
  // The untouched file still loads.
  write_bytes(path, good);
  CHECK(load()->parser_dwa().num_states() == compiled->parser_dwa().num_states());
  std::filesystem::remove(path);
}

TEST_CASE("artifact: threads that meet the same token sets first all read them right") {
  Fixture f;
  const auto compiled = mask::CompiledMask::compile(f.grammar, f.vocabulary);
  const auto path = temp_path("threads");
  mask::write_mask_artifact(*compiled, f.vocabulary, path);
  const auto loaded = mask::read_mask_artifact(path, f.grammar, f.vocabulary);
  std::filesystem::remove(path);
  const TokenSetPool& pool = loaded->pool();
  // Each thread reads every set, starting at a different one, so first uses overlap.
  constexpr std::size_t kThreads = 4;
  std::vector<std::vector<std::uint64_t>> seen(kThreads);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const std::size_t n = pool.distinct_sets();
      seen[t].assign(n, 0);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t id = (i + t * n / kThreads) % n;
        seen[t][id] = pool.cardinality(TokenSetId{static_cast<std::uint32_t>(id)});
      }
    });
  for (std::thread& thread : threads) thread.join();
  std::vector<std::uint64_t> expected;
  for (std::uint32_t id = 0; id < pool.distinct_sets(); ++id)
    expected.push_back(pool.get(TokenSetId{id}).cardinality());
  CHECK(expected.size() > 2);
  for (const auto& counts : seen) CHECK(counts == expected);
}

TEST_CASE("artifact: SynCode's JSON grammar with Llama-3 loads to the automaton it compiled to") {
  if (!glrmask::testing::require_data_dir("wfa_mask_artifact_test (JSON, Llama-3)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const auto grammar =
      glr::CompiledGrammar::load_lark(data_dir() / "grammars" / "syncode" / "json_grammar.lark");
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
  const auto path = temp_path("json_llama3");
  mask::write_mask_artifact(*compiled, vocabulary, path);
  const auto loaded = mask::read_mask_artifact(path, grammar, vocabulary);
  std::filesystem::remove(path);  // the mapping stays valid after the name is gone
  require_same_automata(*loaded, *compiled);

  // Mask by mask at every teacher-forced step, EOS included, against the fresh compilation.
  mask::WfaEngine original(compiled, vocabulary);
  mask::WfaEngine reloaded(loaded, vocabulary);
  const std::string document =
      R"({"id": 17, "name": "Ada Lovelace", "tags": ["math", "engine", ""], )"
      R"("ratio": -0.25e3, "ok": true, "next": null, "nested": {"a": [], "b": {"c": [1, 2.5]}}})";
  const std::size_t steps = glrmask::testing::compare_teacher_forced(grammar, reloaded, original,
                                                                     vocabulary, encoder, document);
  CHECK(steps > 40);
}

TEST_CASE("artifact: any one byte damaged behind a valid checksum is refused or stays in bounds") {
  // Every byte of the file, changed two ways, the checksums resealed (the file's, and the token
  // set's when the byte is in one): the loader either refuses it with a glrmask::Error, or the
  // masks it computes throw one (a damaged set on its first use) or read no memory they should
  // not (the sanitizer pass checks that). A change that keeps the
  // automaton well formed (another token in a set, another transition target in range) cannot be
  // told from a real compilation without compiling again; those load, and are counted. A few of
  // them meet a lexer configuration the automaton lacks while computing a mask: a glrmask::Error
  // that names it.
  Fixture f;
  const auto compiled = mask::CompiledMask::compile(f.grammar, f.vocabulary);
  const auto path = scratch_path("every_byte");
  mask::write_mask_artifact(*compiled, f.vocabulary, path);
  const std::string good = read_text_file(path);
  const std::vector<std::string> prefixes = {"", "i", "if", "ifa", "a= ", "if a"};
  std::size_t refused = 0, loaded = 0, masks = 0, refused_in_use = 0;
  for (std::size_t at = 0; at + testing::kArtifactTrailerBytes < good.size(); ++at) {
    for (const unsigned flip : {0x01u, 0xffu}) {
      std::string bytes = good;
      bytes[at] = static_cast<char>(static_cast<unsigned char>(bytes[at]) ^ flip);
      // Inside the token set images: the images' checksums resealed too.
      if (at >= artifact_trailer_field(good, 0) && at < artifact_trailer_field(good, 1))
        REQUIRE(reseal_artifact_images(bytes) > 0);
      REQUIRE(reseal_artifact_file(bytes));
      write_bytes(path, bytes);
      INFO("byte " << at << " of " << good.size() << " xor " << flip);
      std::shared_ptr<const mask::CompiledMask> mask;
      try {
        mask = mask::read_mask_artifact(path, f.grammar, f.vocabulary);
      } catch (const Error&) {
        ++refused;
        continue;
      }
      ++loaded;
      mask::WfaEngine engine(mask, f.vocabulary);
      for (const std::string& prefix : prefixes) {
        glr::Session session(f.grammar, &f.vocabulary);
        if (!session.try_commit_bytes(prefix)) continue;
        try {
          const DenseMask tokens = engine_mask(engine, session, f.vocabulary);
          REQUIRE(tokens.universe_size() == f.vocabulary.size());
          ++masks;
        } catch (const Error&) {
          // A lexer configuration the damaged automaton lacks, or a damaged token set met on
          // its first use: named, clean.
          ++refused_in_use;
          break;
        }
      }
    }
  }
  INFO("refused " << refused << ", loaded " << loaded << " (" << refused_in_use
                  << " of them refused in use), masks " << masks);
  CHECK(refused > 0);
  CHECK(refused + loaded == 2 * (good.size() - testing::kArtifactTrailerBytes));
  std::filesystem::remove(path);
}
