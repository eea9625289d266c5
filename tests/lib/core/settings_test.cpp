// The two outside folders: GLRMASK_CACHE overrides the built-in cache folder, and a build without
// one (the Python package) falls back to the user's cache folder.
#include "lib/core/settings.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "lib/core/error.h"

using namespace glrmask;

TEST_CASE("settings: the user cache folder, for a build without a built-in one") {
  CHECK(user_cache_dir("/x/cache", "/home/u") == std::filesystem::path("/x/cache/glrmask"));
  CHECK(user_cache_dir("", "/home/u") == std::filesystem::path("/home/u/.cache/glrmask"));
  CHECK(user_cache_dir(nullptr, "/home/u") == std::filesystem::path("/home/u/.cache/glrmask"));
  CHECK(user_cache_dir(nullptr, nullptr) == std::filesystem::path(".glrmask-cache"));
}

TEST_CASE("settings: GLRMASK_CACHE names where tokenizers are found by name") {
  const char* before = std::getenv("GLRMASK_CACHE");
  const std::string saved = before != nullptr ? before : "";
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "glrmask_settings_test_cache";
  const std::filesystem::path json =
      folder / "tokenizers" / "llama3" / "package" / "models" / "tokenizer.json";
  std::filesystem::create_directories(json.parent_path());
  {
    std::FILE* f = std::fopen(json.c_str(), "w");
    std::fclose(f);
  }
  setenv("GLRMASK_CACHE", folder.c_str(), 1);
  CHECK(cache_dir() == folder);
  CHECK(resolve_tokenizer("llama3") == json);
  try {
    (void)resolve_tokenizer("qwen3");
    FAIL("a tokenizer missing from the cache was found");
  } catch (const Error& error) {
    CHECK(error.code() == ErrorCode::kIo);
  }
  if (before != nullptr) {
    setenv("GLRMASK_CACHE", saved.c_str(), 1);
  } else {
    unsetenv("GLRMASK_CACHE");
  }
  std::filesystem::remove_all(folder);
}
