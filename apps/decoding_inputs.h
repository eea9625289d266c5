// What the decoding commands (mask, generate) load before their first step: the compiled grammar,
// the tokenizer's vocabulary (and encoder, for teacher forcing), and their numeric options.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "glr/compiled_grammar.h"
#include "lib/core/token_id.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"

namespace glrmask::app {

struct DecodingInputs {
  std::shared_ptr<const glr::CompiledGrammar> grammar;
  Vocabulary vocabulary;
  std::optional<Encoder> encoder;  // only when asked for
  TokenId eos = 0;
};

// Loads the grammar and the tokenizer `tokenizer` (a name or a tokenizer.json path; read once for
// both vocabulary and encoder). Throws glrmask::Error when the vocabulary names no EOS token:
// both commands need it to end a text.
DecodingInputs load_decoding_inputs(const std::string& grammar_path,
                                    const glr::ParseOptions& options, const std::string& tokenizer,
                                    bool with_encoder);
// As above, with an already compiled grammar (a JSON Schema or regex constraint).
DecodingInputs load_decoding_inputs(std::shared_ptr<const glr::CompiledGrammar> grammar,
                                    const std::string& tokenizer, bool with_encoder);

// The value of `--option` as an integer >= `minimum`; throws glrmask::Error naming the option.
std::uint64_t parse_count_option(std::string_view option, const std::string& text,
                                 std::uint64_t minimum);

// A probability in [0, 1]; throws glrmask::Error naming the option.
double parse_probability_option(std::string_view option, const std::string& text);

}  // namespace glrmask::app
