// `glrmask vocab`: what a tokenizer's vocabulary looks like to the mask engines.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "apps/args.h"
#include "apps/commands.h"
#include "lib/core/escape.h"
#include "lib/core/settings.h"
#include "lib/tokenizer/vocabulary.h"

namespace glrmask::app {
namespace {

// Byte lengths are grouped as 0, 1, 2, ..., 15, 16-31, 32-63, 64+.
std::size_t length_bucket(std::size_t length) {
  if (length < 16) return length;
  if (length < 32) return 16;
  if (length < 64) return 17;
  return 18;
}

std::string bucket_label(std::size_t bucket) {
  if (bucket < 16) return fmt::format("{}", bucket);
  if (bucket == 16) return "16-31";
  if (bucket == 17) return "32-63";
  return "64+";
}

std::string printable(std::string_view bytes) {
  return escape_bytes(
      bytes, {.quoted = false, .keep_utf8 = false, .hex_controls = true, .hex_also = "\\"});
}

}  // namespace

int run_vocab(const CommandArgs& argv) {
  Args args(argv, {"tokenizer"}, {});
  args.expect_positional(0, 0, "glrmask vocab --tokenizer NAME|PATH");
  auto path = resolve_tokenizer(args.required("tokenizer"));
  Vocabulary vocab = Vocabulary::load(path);

  std::array<std::size_t, 19> histogram{};
  std::size_t present = 0, maskable = 0, max_length = 0, total_bytes = 0;
  TokenId longest = 0;
  for (TokenId id = 0; id < vocab.size(); ++id) {
    if (!vocab.contains(id)) continue;
    ++present;
    if (vocab.is_special(id)) continue;
    ++maskable;
    std::size_t length = vocab.bytes(id).size();
    ++histogram[length_bucket(length)];
    total_bytes += length;
    if (length > max_length) max_length = length, longest = id;
  }

  fmt::print("tokenizer     {}\n", path.string());
  fmt::print("vocabulary    {}\n", vocab.description());
  fmt::print("ids           {} ({} present, {} holes)\n", vocab.size(), present,
             vocab.size() - present);
  fmt::print("maskable      {} (special tokens excluded)\n", maskable);
  fmt::print("special       {}\n", vocab.special_ids().size());
  std::size_t shown = 0;
  for (TokenId id : vocab.special_ids()) {
    if (shown++ == 12) {
      fmt::print("              ... {} more\n", vocab.special_ids().size() - 12);
      break;
    }
    fmt::print("              {:>7}  {}\n", id, printable(vocab.piece(id)));
  }
  if (auto eos = vocab.eos())
    fmt::print("EOS           {} {}\n", *eos, printable(vocab.piece(*eos)));
  else
    fmt::print("EOS           none\n");
  fmt::print("longest       {} bytes: id {} \"{}\"\n", max_length, longest,
             printable(vocab.bytes(longest)));
  fmt::print("mean length   {:.2f} bytes\n",
             maskable ? static_cast<double>(total_bytes) / static_cast<double>(maskable) : 0.0);
  fmt::print("\nbyte length   tokens\n");
  std::size_t peak = *std::max_element(histogram.begin(), histogram.end());
  for (std::size_t b = 0; b < histogram.size(); ++b) {
    if (histogram[b] == 0) continue;
    std::size_t bar = peak ? (histogram[b] * 50 + peak - 1) / peak : 0;
    fmt::print("{:>11}   {:>7}  {}\n", bucket_label(b), histogram[b], std::string(bar, '#'));
  }
  return 0;
}

}  // namespace glrmask::app
