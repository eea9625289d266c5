#include "mask/parser_dwa/indenter_condition.h"

#include <optional>

namespace glrmask::mask {

namespace {

// levels[i - 1], with level 0 the implicit bottom one.
std::uint32_t level(const IndenterContext& context, std::int64_t i) {
  if (i <= 0) return 0;
  return context.levels[static_cast<std::size_t>(i - 1)];
}

// The newline's width, or nullopt when its text holds no '\n' (the indenter refuses it).
std::optional<std::uint32_t> width(const IndenterCondition& condition,
                                   const IndenterContext& context) {
  switch (condition.text_kind) {
    case lexer::IndentTextKind::kAbsolute:
      return condition.value;
    case lexer::IndentTextKind::kRelative:
      if (!context.carried.has_newline) return std::nullopt;
      return context.carried.width + condition.value;
    case lexer::IndentTextKind::kNoNewline:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

bool holds(const IndenterCondition& condition, const IndenterContext& context,
           std::int64_t frames_above) {
  const auto n = static_cast<std::int64_t>(context.levels.size());
  switch (condition.kind) {
    case ConditionKind::kDepthIs:
      return context.depth == condition.value;
    case ConditionKind::kDepthAbove:
      return context.depth > condition.value;
    case ConditionKind::kDeferred:
      return false;
    default:
      break;
  }
  const std::optional<std::uint32_t> w = width(condition, context);
  if (!w) return false;
  switch (condition.kind) {
    case ConditionKind::kTopEqual:
      return *w == level(context, n);
    case ConditionKind::kTopAbove:
      return *w > level(context, n);
    case ConditionKind::kFrameEqual:
      return *w == level(context, n - frames_above - 1);
    default:
      return false;
  }
}

}  // namespace glrmask::mask
