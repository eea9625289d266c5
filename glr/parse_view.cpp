#include "glr/parse_view.h"

#include "glr/session.h"

namespace glrmask::glr {

ParseView::ParseView(const Session& session)
    : session_(&session),
      recognizer_(&session.recognizer()),
      position_(&session.position()),
      finished_(session.is_finished()) {}

bool ParseView::is_accepting() const {
  return session_->is_accepting();
}

bool ParseView::accepts_bytes(std::string_view bytes) const {
  return session_->accepts_bytes(bytes);
}

}  // namespace glrmask::glr
