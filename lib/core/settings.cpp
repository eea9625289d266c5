#include "lib/core/settings.h"

#include <fmt/format.h>

#include <array>
#include <cstdlib>

#include "lib/core/error.h"

namespace glrmask {
namespace {

std::filesystem::path from_env_or(const char* variable, const char* fallback) {
  const char* value = std::getenv(variable);
  return std::filesystem::path(value && *value ? value : fallback);
}

constexpr std::array<std::string_view, 5> kTokenizerNames = {"llama2", "llama3", "qwen3", "gemma3",
                                                             "gptoss"};

}  // namespace

std::filesystem::path data_dir() {
  return from_env_or("GLRMASK_DATA", GLRMASK_DEFAULT_DATA_DIR);
}

std::filesystem::path user_cache_dir(const char* xdg_cache_home, const char* home) {
  if (xdg_cache_home != nullptr && *xdg_cache_home != '\0')
    return std::filesystem::path(xdg_cache_home) / "glrmask";
  if (home != nullptr && *home != '\0') return std::filesystem::path(home) / ".cache" / "glrmask";
  return ".glrmask-cache";
}

std::filesystem::path cache_dir() {
  if (const char* value = std::getenv("GLRMASK_CACHE"); value != nullptr && *value != '\0')
    return value;
  if (*GLRMASK_DEFAULT_CACHE_DIR != '\0') return GLRMASK_DEFAULT_CACHE_DIR;
  return user_cache_dir(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
}

bool have_data_dir() {
  std::error_code ec;
  return std::filesystem::is_directory(data_dir(), ec);
}

std::filesystem::path resolve_tokenizer(std::string_view name_or_path) {
  for (std::string_view name : kTokenizerNames) {
    if (name_or_path != name) continue;
    auto path =
        cache_dir() / "tokenizers" / std::string(name) / "package" / "models" / "tokenizer.json";
    if (!std::filesystem::exists(path)) {
      // A build of the source tree has a setup script that fetches it; the Python package has
      // none, and its users have the tokenizer's file or object at hand.
      const char* remedy =
          *GLRMASK_DEFAULT_CACHE_DIR != '\0'
              ? "run scripts/setup.sh"
              : "give the path of its tokenizer.json, or use Tokenizer.from_huggingface, or set "
                "GLRMASK_CACHE to a folder that holds tokenizers/<name>/package/models/";
      throw Error(
          fmt::format("{}: tokenizer '{}' is not in the cache; {}", path.string(), name, remedy),
          ErrorCode::kIo, ErrorLocation::in_file(path.string()));
    }
    return path;
  }
  std::filesystem::path path(name_or_path);
  if (std::filesystem::is_directory(path)) path /= "tokenizer.json";
  if (!std::filesystem::exists(path)) {
    if (name_or_path.find('/') == std::string_view::npos &&
        name_or_path.find(".json") == std::string_view::npos)
      throw Error(fmt::format("{}: unknown tokenizer name (expected llama2, llama3, qwen3, gemma3, "
                              "gptoss or a path to a tokenizer.json)",
                              name_or_path),
                  ErrorCode::kInvalidArgument);
    throw Error(fmt::format("{}: no such file", path.string()), ErrorCode::kIo,
                ErrorLocation::in_file(path.string()));
  }
  return path;
}

}  // namespace glrmask
