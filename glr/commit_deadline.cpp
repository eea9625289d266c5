#include "glr/commit_deadline.h"

#include <fmt/format.h>

#include "lib/core/error.h"

namespace glrmask::glr {

thread_local CommitDeadline::Armed CommitDeadline::armed_;

CommitDeadline::CommitDeadline(double seconds) : saved_(armed_) {
  if (seconds <= 0) return;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(seconds));
  if (armed_.active && armed_.deadline <= deadline) return;
  armed_ = {true, deadline, seconds};
}

CommitDeadline::~CommitDeadline() {
  armed_ = saved_;
}

void CommitDeadline::check() {
  if (!armed_.active || std::chrono::steady_clock::now() < armed_.deadline) return;
  throw Error(fmt::format("the commit took longer than {} s (limit Limits::max_commit_seconds): "
                          "generalized parsing of this text is too "
                          "costly for the grammar",
                          armed_.seconds),
              ErrorCode::kLimit);
}

}  // namespace glrmask::glr
