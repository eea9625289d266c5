#include "mask/mask_engine.h"

#include <fmt/format.h>

#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"

namespace glrmask::mask {

void check_mask_words(std::string_view engine, std::size_t words, std::uint32_t universe) {
  if (words != dense_word_count(universe)) {
    throw Error(fmt::format("{} mask: {} words given, the vocabulary ({} ids) needs {}", engine,
                            words, universe, dense_word_count(universe)),
                ErrorCode::kInvalidArgument);
  }
}

void check_session_grammar(std::string_view engine, const glr::ParseView& parse,
                           const glr::CompiledGrammar& grammar) {
  if (&parse.grammar() != &grammar) {
    throw Error(
        fmt::format("{} mask: the session at byte offset {} uses another grammar than the engine",
                    engine, parse.byte_offset()),
        ErrorCode::kInvalidArgument);
  }
}

}  // namespace glrmask::mask
