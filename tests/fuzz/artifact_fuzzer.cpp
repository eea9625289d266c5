// Fuzz target: a compiled artifact through the artifact loader (header, version, checksum,
// sections, token sets, automata), for a fixed small grammar and vocabulary (the fixtures
// glr_session/ambiguous_sum.lark and tokenizers/tiny_byte_level), and when it loads, a few
// masks of the wfa engine built on it. When the first byte is odd the file checksum is recomputed
// over the mutated bytes, so that mutations get past it and reach the section readers (a damaged
// artifact whose checksum was made to match must be refused or at least not crash). Only
// crashes and sanitizer reports are findings here: whether such an artifact's masks are right is
// the loader's validation question (tests/wfa/mask_artifact_test.cpp).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/binary_io.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/fuzz/fuzz_support.h"
#include "wfa/mask_artifact.h"
#include "wfa/wfa_engine.h"

namespace {

struct Fixture {
  std::shared_ptr<const glrmask::glr::CompiledGrammar> grammar =
      glrmask::glr::CompiledGrammar::load_lark(std::string(GLRMASK_FIXTURES_DIR) +
                                               "/glr_session/ambiguous_sum.lark");
  glrmask::Vocabulary vocabulary = glrmask::Vocabulary::load(
      std::string(GLRMASK_FIXTURES_DIR) + "/tokenizers/tiny_byte_level/tokenizer.json");
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 1 << 20) return 0;
  static const Fixture fixture;
  static const auto path = glrmask::fuzz::scratch_file("fuzz.glrmask");
  std::string bytes(glrmask::fuzz::as_text(data + 1, size - 1));
  // The trailer: where the token set images lie, [begin, end), and the checksum of every other
  // byte (wfa/mask_artifact.cpp). The images' own checksums are not recomputed: a mutated image
  // is refused on its first use.
  if ((data[0] & 1) != 0 && bytes.size() >= 24) {
    std::uint64_t trailer[3];
    std::memcpy(trailer, bytes.data() + bytes.size() - sizeof trailer, sizeof trailer);
    const std::string_view body(bytes.data(), bytes.size() - sizeof trailer);
    if (trailer[0] <= trailer[1] && trailer[1] <= body.size()) {
      constexpr std::uint64_t kMix = 0x9e3779b97f4a7c15ULL;
      trailer[2] = (glrmask::checksum64(body.substr(0, trailer[0])) * kMix +
                    glrmask::checksum64(body.substr(trailer[1]))) *
                       kMix +
                   glrmask::checksum64(std::string_view(bytes.data() + body.size(), 16));
      std::memcpy(bytes.data() + bytes.size() - sizeof trailer, trailer, sizeof trailer);
    }
  }
  glrmask::fuzz::write_file(path, bytes);
  glrmask::fuzz::expect_clean([&] {
    const auto artifact = glrmask::wfa::ArtifactFile::open(path);
    const auto compiled = artifact.compiled_mask(fixture.grammar, fixture.vocabulary);
    glrmask::wfa::WfaEngine engine(compiled, fixture.vocabulary, 0);
    glrmask::glr::Session session(fixture.grammar, &fixture.vocabulary);
    std::vector<std::uint32_t> words((fixture.vocabulary.size() + 31) / 32);
    for (const char* piece : {"", "1", "+", "2"}) {
      if (!session.try_commit_bytes(piece)) break;
      engine.fill_mask(session, words);
    }
  });
  return 0;
}
