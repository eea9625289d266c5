// GLRMASK_DCHECK: on in Debug and the sanitizer build, off (and not evaluated) elsewhere; a failed
// check aborts with the condition, the place and the message.
#include "lib/core/check.h"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <string>

namespace {

TEST_CASE("GLRMASK_DCHECK evaluates its condition exactly when checks are on") {
  int evaluated = 0;
  GLRMASK_DCHECK(++evaluated > 0);
  GLRMASK_DCHECK(++evaluated > 0, "with a message: {}", evaluated);
  CHECK(evaluated == 2 * GLRMASK_DCHECK_IS_ON);
}

#if GLRMASK_DCHECK_IS_ON

// Runs `body` in a forked child with stderr into a pipe; returns what the child wrote there and
// whether it died of SIGABRT.
template <class Body>
std::pair<std::string, bool> run_in_child(Body body) {
  int pipe_ends[2];
  REQUIRE(pipe(pipe_ends) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(pipe_ends[0]);
    dup2(pipe_ends[1], STDERR_FILENO);
    body();
    std::_Exit(0);
  }
  close(pipe_ends[1]);
  std::string written;
  char buffer[512];
  for (ssize_t n; (n = read(pipe_ends[0], buffer, sizeof buffer)) > 0;) written.append(buffer, n);
  close(pipe_ends[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  return {written, WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT};
}

TEST_CASE("A failed GLRMASK_DCHECK aborts with the condition, the place and the message") {
  const int state = 7;
  const auto [written, aborted] =
      run_in_child([&] { GLRMASK_DCHECK(state < 3, "state {} of {}", state, 3); });
  CHECK(aborted);
  CHECK_THAT(written, Catch::Contains("check_test.cpp:") &&
                          Catch::Contains("GLRMASK_DCHECK(state < 3) failed: state 7 of 3"));

  const auto [quiet, survived_abort] = run_in_child([&] { GLRMASK_DCHECK(state == 7); });
  CHECK_FALSE(survived_abort);
  CHECK(quiet.empty());
}

#endif

}  // namespace
