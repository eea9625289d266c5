#include "api/src/limits_internal.h"

#include <limits>

namespace glrmask {

lexer::LexerDfaLimits lexer_limits(const Limits& limits) {
  lexer::LexerDfaLimits result;
  // The lexer compiler has no "no limit": the largest count is one.
  result.max_dfa_states = limits.max_lexer_states != 0 ? limits.max_lexer_states
                                                       : std::numeric_limits<std::size_t>::max();
  return result;
}

glr::ParserLimits parser_limits(const Limits& limits) {
  return glr::ParserLimits{limits.max_step_work};
}

glr::SessionOptions session_options(const Limits& limits, std::size_t max_rollback) {
  glr::SessionOptions options;
  options.max_rollback = max_rollback;
  options.max_commit_seconds = limits.max_commit_seconds;
  return options;
}

void apply_compile_limits(const Limits& limits, mask::ParserDwaOptions& options) {
  options.max_states = limits.max_parser_dwa_states;
  options.max_transitions = limits.max_parser_dwa_transitions;
  options.max_memory_bytes = limits.max_compile_memory_mib << 20;
  options.max_terminal_dwa_forks = limits.max_terminal_dwa_forks;
}

}  // namespace glrmask
