#include "lexer/terminal_dwa/terminal_dwa.h"

#include <fmt/format.h>

#include <algorithm>

#include "lib/core/error.h"

namespace glrmask::lexer {

std::optional<ForkId> TerminalDwa::find_fork(const LexerFork& fork) const {
  const auto at = fork_ids_.find(fork);
  if (at == fork_ids_.end()) return std::nullopt;
  return at->second;
}

std::optional<DwaNodeId> TerminalDwa::child(DwaNodeId node, LabelId label) const {
  const auto out = edges(node);
  const auto at = std::lower_bound(out.begin(), out.end(), label,
                                   [](const DwaEdge& edge, LabelId l) { return edge.label < l; });
  if (at == out.end() || at->label != label) return std::nullopt;
  return at->child;
}

std::vector<DwaEntry> TerminalDwa::enter(const LexerConfiguration& configuration) const {
  std::vector<DwaEntry> entries;
  for (ForkedLexing& alternative : fork_configuration(*dfa_, configuration)) {
    const std::optional<ForkId> fork = find_fork(alternative.fork);
    if (!fork) {
      throw Error(
          fmt::format(
              "Terminal DWA: the lexer configuration (DFA state {}, accepted {}, {} pending bytes) "
              "has the fork {}, which no sequence of vocabulary tokens reaches",
              configuration.state,
              configuration.accepted == LexerDfa::kNoLabel
                  ? std::string("nothing")
                  : dfa_->describe_label(configuration.accepted),
              configuration.pending.size(), describe_fork(alternative.fork)),
          ErrorCode::kUnsupported);
    }
    entries.push_back({std::move(alternative.labels), *fork});
  }
  return entries;
}

std::string TerminalDwa::describe_label(LabelId label) const {
  const std::string base = dfa_->describe_label(base_label(label));
  if (!is_indent_label(label)) return base;
  const IndentText text = indent_text(label);
  switch (text.kind) {
    case IndentTextKind::kAbsolute:
      return fmt::format("{}({})", base, text.width);
    case IndentTextKind::kRelative:
      return fmt::format("{}(+{})", base, text.width);
    case IndentTextKind::kNoNewline:
      return base + "(no newline)";
  }
  return base;
}

std::vector<TokenId> TerminalDwa::example_path(ForkId fork) const {
  std::vector<TokenId> tokens;
  for (ForkId at = fork; at != kInitialFork; at = origin_fork_[at]) {
    tokens.push_back(origin_token_[at]);
  }
  std::reverse(tokens.begin(), tokens.end());
  return tokens;
}

}  // namespace glrmask::lexer
