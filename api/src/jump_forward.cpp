#include "api/src/jump_forward.h"

#include "lib/core/token_terminal.h"

namespace glrmask {
namespace {

// The only byte that keeps `position` viable, or -1 when none or several do.
int only_viable_byte(const Constraint::Impl& constraint, const glr::ParsePosition& position,
                     glr::ParsePosition& after) {
  const glr::IncrementalRecognizer& recognizer = *constraint.recognizer;
  int found = -1;
  const auto try_byte = [&](unsigned byte) {
    const char c = static_cast<char>(byte);
    glr::ParsePosition next = position;
    if (!recognizer.advance(next, std::string_view(&c, 1))) return true;
    if (found >= 0) return false;  // a second viable byte
    found = static_cast<int>(byte);
    after = std::move(next);
    return true;
  };
  if (constraint.grammar->indenter() != nullptr) {
    for (unsigned byte = 0; byte < 256; ++byte)
      if (!try_byte(byte)) return -1;
    return found;
  }
  const Constraint::Impl::ByteClasses& classes = constraint.byte_classes();
  for (std::size_t c = 0; c < classes.representatives.size(); ++c) {
    const bool was_found = found >= 0;
    if (!try_byte(classes.representatives[c])) return -1;
    if (!was_found && found >= 0 && classes.sizes[c] > 1) return -1;  // the class's other bytes too
  }
  return found;
}

}  // namespace

std::string forced_continuation(const Constraint::Impl& constraint, const glr::Session& session,
                                std::size_t max_bytes) {
  std::string forced;
  if (session.is_finished()) return forced;
  const glr::IncrementalRecognizer& recognizer = *constraint.recognizer;
  glr::ParsePosition position = session.position();
  glr::ParsePosition after;
  while (forced.size() < max_bytes && !recognizer.is_accepting(position)) {
    const int byte = only_viable_byte(constraint, position, after);
    // A token terminal's stand-in is not text: the token itself is sampled.
    if (byte < 0 || byte == kTokenTerminalLead) break;
    forced.push_back(static_cast<char>(byte));
    position = std::move(after);
  }
  return forced;
}

}  // namespace glrmask
