#include "mask/post_lexer_refusal.h"

#include <fmt/format.h>

#include <utility>

#include "lib/core/error.h"

namespace glrmask::mask {

void refuse_post_lexer(const glr::CompiledGrammar& grammar, std::string_view engine) {
  if (grammar.options().postlex == glr::PostLexer::kNone) return;
  throw Error(
      fmt::format(
          "the {} engine cannot serve a grammar with a post-lexer (GrammarOptions::postlex {}): "
          "its construction "
          "reads the terminal sequences of tokens without the indentation text and the indenter "
          "state, so its masks would be wrong; the wfa, spanner and oracle engines serve it",
          engine, glr::post_lexer_name(grammar.options().postlex)),
      ErrorCode::kUnsupported);
}

std::shared_ptr<const glr::CompiledGrammar> without_post_lexer(
    std::shared_ptr<const glr::CompiledGrammar> grammar, std::string_view engine) {
  if (grammar) refuse_post_lexer(*grammar, engine);
  return grammar;
}

}  // namespace glrmask::mask
