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

std::filesystem::path cache_dir() {
  return from_env_or("GLRMASK_CACHE", GLRMASK_DEFAULT_CACHE_DIR);
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
    if (!std::filesystem::exists(path))
      throw Error(fmt::format("{}: tokenizer '{}' is not in the setup cache; run scripts/setup.sh",
                              path.string(), name),
                  ErrorCode::kIo, ErrorLocation::in_file(path.string()));
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
