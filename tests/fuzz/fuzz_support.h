// Helpers shared by the libFuzzer targets of tests/fuzz/ (see tests/fuzz/README.md).
//
// A target feeds its input to one parser of untrusted input. A glrmask::Error is the expected
// answer to bad input and is swallowed, except ErrorCode::kInternal, which is a bug. Any other
// exception escaping the library (std::bad_alloc, std::out_of_range, ...) is a bug too: the
// target aborts, so libFuzzer (or the replay driver) reports the input that caused it.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "lib/core/error.h"

namespace glrmask::fuzz {

[[noreturn]] inline void fail(const char* what, const char* detail) {
  std::fprintf(stderr, "fuzz: %s: %s\n", what, detail);
  std::abort();
}

// Runs `body`; a glrmask::Error other than kInternal is the expected refusal of bad input.
// GLRMASK_FUZZ_VERBOSE=1 prints each refusal (to see how far a seed gets).
template <typename Body>
void expect_clean(Body&& body) {
  try {
    body();
  } catch (const Error& e) {
    if (e.code() == ErrorCode::kInternal) fail("internal error", e.what());
    if (std::getenv("GLRMASK_FUZZ_VERBOSE") != nullptr)
      std::fprintf(stderr, "refused: %s\n", e.what());
  } catch (const std::exception& e) {
    fail("exception other than glrmask::Error", e.what());
  }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A file of this process under the temporary folder, for loaders that take a path; `name` is
// its last component (e.g. tokenizer.json, whose loader also looks beside it).
inline std::filesystem::path scratch_file(const std::string& name) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("glrmask_fuzz_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  return folder / name;
}

inline void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace glrmask::fuzz
