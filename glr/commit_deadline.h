// A wall-clock budget for one call into the parser (a session's commit): armed for the calling
// thread while a CommitDeadline object lives, checked by the GLR parser between and inside its
// steps (glr_parser.cpp), so a text that makes generalized parsing slow fails cleanly instead of
// running on. Thread-local because the parser is shared and const: the budget belongs to the call,
// not to the grammar. Nested deadlines keep the earliest.
#pragma once

#include <chrono>

namespace glrmask::glr {

class CommitDeadline {
 public:
  // `seconds` <= 0 arms nothing.
  explicit CommitDeadline(double seconds);
  ~CommitDeadline();
  CommitDeadline(const CommitDeadline&) = delete;
  CommitDeadline& operator=(const CommitDeadline&) = delete;

  // Throws glrmask::Error (ErrorCode::kLimit) naming the budget when this thread's armed
  // deadline has passed; a thread-local flag test when none is armed.
  static void check();

 private:
  struct Armed {
    bool active = false;
    std::chrono::steady_clock::time_point deadline;
    double seconds = 0;
  };
  static thread_local Armed armed_;
  Armed saved_;
};

}  // namespace glrmask::glr
