// The two folders glrmask reads from outside its own tree, each found through one setting:
//   GLRMASK_DATA   real inputs (grammars, JSON Schemas, programs); default: the build's
//                  GLRMASK_DATA_DIR, normally ../shared/data beside the source tree.
//   GLRMASK_CACHE  tokenizers by name ("llama3": <cache>/tokenizers/llama3/package/models/
//                  tokenizer.json, what scripts/setup.sh fetches) and the reference JS runtime;
//                  default: the build's GLRMASK_CACHE_DIR, .cache in the source tree for a build
//                  of the tree, none for the Python package, whose default is the user's cache
//                  folder: $XDG_CACHE_HOME/glrmask, else ~/.cache/glrmask.
// An environment variable of the same name overrides the built-in default.
#pragma once

#include <filesystem>
#include <string_view>

namespace glrmask {

std::filesystem::path data_dir();
std::filesystem::path cache_dir();
// The cache folder of a build without a built-in one: `xdg_cache_home`/glrmask, else
// `home`/.cache/glrmask, else .glrmask-cache in the working folder (either may be null or empty).
std::filesystem::path user_cache_dir(const char* xdg_cache_home, const char* home);

// True when `data_dir()` exists. Tests that need real data print a loud warning when it does not
// and fall back to the project's own fixtures.
bool have_data_dir();

// Resolves a tokenizer given either as a short name (llama2, llama3, qwen3, gemma3, gptoss) from
// the setup cache or as the path of a tokenizer.json. Throws glrmask::Error for an unknown name or
// a missing file, naming both.
std::filesystem::path resolve_tokenizer(std::string_view name_or_path);

}  // namespace glrmask
