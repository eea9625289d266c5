#include "apps/decoding_inputs.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

#include "apps/args.h"
#include "lib/core/error.h"
#include "lib/tokenizer/tokenizer_choice.h"
#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask::app {

DecodingInputs load_decoding_inputs(const std::string& grammar_path,
                                    const glr::ParseOptions& options, const std::string& tokenizer,
                                    bool with_encoder) {
  return load_decoding_inputs(glr::CompiledGrammar::load_lark(grammar_path, options), tokenizer,
                              with_encoder);
}

DecodingInputs load_decoding_inputs(std::shared_ptr<const glr::CompiledGrammar> grammar,
                                    const std::string& tokenizer, bool with_encoder) {
  const TokenizerSpec spec = TokenizerSpec::load(resolve_encoder_tokenizer(tokenizer));
  Vocabulary vocabulary = vocabulary_for(tokenizer, spec);
  const auto eos = vocabulary.eos();
  if (!eos) {
    throw Error(fmt::format("tokenizer {}: no EOS token ({}); decoding needs one to end a text",
                            tokenizer, vocabulary.description()),
                ErrorCode::kInvalidArgument);
  }
  DecodingInputs inputs{std::move(grammar), std::move(vocabulary), std::nullopt, *eos};
  if (with_encoder) inputs.encoder.emplace(spec);
  return inputs;
}

std::uint64_t parse_count_option(std::string_view option, const std::string& text,
                                 std::uint64_t minimum) {
  return parse_count(option, text, minimum);
}

double parse_probability_option(std::string_view option, const std::string& text) {
  char* stop = nullptr;
  const double value = std::strtod(text.c_str(), &stop);
  if (text.empty() || stop != text.c_str() + text.size() || !(value >= 0.0 && value <= 1.0))
    throw Error(
        fmt::format("option --{}: expected a probability in [0, 1], got '{}'", option, text),
        ErrorCode::kInvalidArgument);
  return value;
}

}  // namespace glrmask::app
