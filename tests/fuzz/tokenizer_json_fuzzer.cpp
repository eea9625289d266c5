// Fuzz target: a tokenizer.json through the loaders (the vocabulary and the encoder), then an
// encode of a fixed text when both load.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 65536) return 0;
  static const auto path = glrmask::fuzz::scratch_file("tokenizer.json");
  glrmask::fuzz::write_file(path, glrmask::fuzz::as_text(data, size));
  glrmask::fuzz::expect_clean([&] { glrmask::Vocabulary::load(path); });
  glrmask::fuzz::expect_clean([&] {
    const glrmask::Encoder encoder = glrmask::Encoder::load(path);
    encoder.encode("Hello, world! {\"a\": [1, 2.5e3]}\n\tnaïve  日本 \xf0\x9f\x99\x82");
  });
  return 0;
}
