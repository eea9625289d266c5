// Whole-file reading for the commands and loaders.
#pragma once

#include <filesystem>
#include <string>

namespace glrmask {

// The file's bytes. Throws glrmask::Error naming the path when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace glrmask
