// A sampling loop constrained to a JSON Schema through the C++ API, with random logits standing in
// for a model (a preference for closing tokens makes sequences end). Prints the instance.
//   sample_json SCHEMA.json [TOKENIZER] [SEED]
#include <cstdio>
#include <fstream>
#include <glrmask/glrmask.hpp>
#include <iterator>
#include <random>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2)
    return std::fprintf(stderr, "usage: sample_json SCHEMA.json [TOKENIZER] [SEED]\n"), 2;
  try {
    std::ifstream file(argv[1], std::ios::binary);
    const std::string schema(std::istreambuf_iterator<char>(file), {});
    const auto tokenizer = glrmask::Tokenizer::load(argc > 2 ? argv[2] : "llama3");
    const auto constraint = glrmask::Constraint::from_json_schema(schema, tokenizer);
    glrmask::Matcher matcher(constraint);

    std::mt19937 random(argc > 3 ? static_cast<unsigned>(std::stoul(argv[3])) : 1u);
    std::normal_distribution<float> noise;
    std::vector<float> bias(tokenizer.vocab_size(), 0.0f);  // the stand-in model's preferences
    for (std::size_t id = 0; id < bias.size(); ++id) {
      const std::string_view bytes = tokenizer.token_bytes(static_cast<std::int32_t>(id));
      if (bytes.find_first_of("\"}],") != std::string_view::npos) bias[id] = 6.0f;
    }
    for (const std::int32_t stop : tokenizer.stop_ids())
      bias[static_cast<std::size_t>(stop)] = 20.0f;

    std::vector<std::int32_t> bitmask(tokenizer.bitmask_words());
    std::vector<float> logits(tokenizer.vocab_size());
    std::string text;
    for (int step = 0; step < 400 && !matcher.is_terminated(); ++step) {
      if (const std::string forced = matcher.find_jump_forward_string(); !forced.empty()) {
        matcher.commit_bytes(forced);  // what every continuation starts with: no sampling
        text += forced;
        continue;
      }
      matcher.fill_next_token_bitmask(bitmask);
      for (std::size_t id = 0; id < logits.size(); ++id) logits[id] = noise(random) + bias[id];
      glrmask::apply_token_bitmask_inplace(logits, bitmask);
      std::int32_t best = 0;
      for (std::size_t id = 1; id < logits.size(); ++id)
        if (logits[id] > logits[static_cast<std::size_t>(best)])
          best = static_cast<std::int32_t>(id);
      matcher.commit_token(best);
      if (!matcher.is_terminated()) text += tokenizer.token_bytes(best);
    }
    std::printf("%s%s\n", matcher.is_terminated() ? "" : "unfinished: ", text.c_str());
    return matcher.is_terminated() ? 0 : 1;
  } catch (const glrmask::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
