// Fuzz target: a compiled artifact through the artifact loader (header, version, checksum,
// sections, token sets, automata), for a fixed small grammar and vocabulary (the fixtures
// glr_session/ambiguous_sum.lark and tokenizers/tiny_byte_level), and when it loads, a few
// masks of the wfa engine built on it. When the first byte is odd the checksums (each token set's
// and the file's) are recomputed over the mutated bytes, so that mutations get past them and reach
// the section readers and the sets' well-formedness check (a damaged artifact whose checksums
// were made to match must be refused or at least not crash). Only
// crashes and sanitizer reports are findings here: whether such an artifact's masks are right is
// the loader's validation question (tests/mask/mask_artifact_test.cpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/binary_io.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/artifact/mask_artifact.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/support/artifact_reseal.h"

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
  // Odd first byte: the checksums recomputed over the mutated bytes (each token set image's, then
  // the file's), so that the damage reaches the section readers and CRoaring's well-formedness
  // check of a set instead of stopping at a checksum.
  if ((data[0] & 1) != 0) {
    glrmask::testing::reseal_artifact_images(bytes);
    glrmask::testing::reseal_artifact_file(bytes);
  }
  glrmask::fuzz::write_file(path, bytes);
  glrmask::fuzz::expect_clean([&] {
    const auto artifact = glrmask::mask::ArtifactFile::open(path);
    const auto compiled = artifact.compiled_mask(fixture.grammar, fixture.vocabulary);
    glrmask::mask::WfaEngine engine(compiled, fixture.vocabulary, 0);
    glrmask::glr::Session session(fixture.grammar, &fixture.vocabulary);
    std::vector<std::uint32_t> words((fixture.vocabulary.size() + 31) / 32);
    for (const char* piece : {"", "1", "+", "2"}) {
      if (!session.try_commit_bytes(piece)) break;
      engine.fill_mask(session, words);
    }
  });
  return 0;
}
