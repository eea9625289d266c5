// Teacher forcing through the installed C++ API, as a user's program would do it:
//   teacher_force TOKENIZER lark|json_schema FILE TEXT [--policy lark] [--skippable NAME]
// prints per step "step token digest" (token -1 at the final stop step), the mask digest of
// `glrmask mask --steps`. Exit 1 when a real token is not in its mask.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <glrmask/glrmask.hpp>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::string read(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::uint64_t digest(const std::vector<std::int32_t>& row) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < row.size(); ++i)
    sum +=
        std::uint64_t{static_cast<std::uint32_t>(row[i])} * ((2 * i + 1) * 0x9E3779B97F4A7C15ull);
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s TOKENIZER lark|json_schema FILE TEXT [options]\n", argv[0]);
    return 2;
  }
  try {
    glrmask::GrammarOptions options;
    for (int i = 5; i + 1 < argc; i += 2) {
      const std::string option = argv[i];
      if (option == "--policy") options.policy = glrmask::ConflictPolicy::kLark;
      if (option == "--skippable") options.skippable.push_back(argv[i + 1]);
    }
    const glrmask::Tokenizer tokenizer = glrmask::Tokenizer::load(argv[1]);
    const std::string grammar = read(argv[3]);
    const glrmask::Constraint constraint =
        std::string(argv[2]) == "lark"
            ? glrmask::Constraint::from_lark(grammar, tokenizer, options, {}, argv[3])
            : glrmask::Constraint::from_json_schema(grammar, tokenizer, {}, {}, argv[3]);
    const std::vector<std::int32_t> tokens = tokenizer.encode(read(argv[4]));
    glrmask::Matcher matcher(constraint);
    std::vector<std::int32_t> row(tokenizer.bitmask_words());
    for (std::size_t step = 0; step <= tokens.size(); ++step) {
      matcher.fill_next_token_bitmask(row);
      const std::int32_t token = step < tokens.size() ? tokens[step] : -1;
      std::printf("%zu %d %llu\n", step, token, static_cast<unsigned long long>(digest(row)));
      if (token < 0) break;
      if (((static_cast<std::uint32_t>(row[token / 32]) >> (token % 32)) & 1u) == 0) return 1;
      matcher.commit_token(token);
    }
  } catch (const glrmask::Error& e) {
    std::fprintf(stderr, "%s (code %s)\n", e.what(), glrmask::error_code_name(e.code()));
    return 1;
  }
  return 0;
}
