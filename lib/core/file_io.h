// Whole-file reading for the commands and loaders.
#pragma once

#include <filesystem>
#include <string>

namespace glrmask {

// The file's bytes. Throws glrmask::Error (kIo) naming the path and the reason when it cannot be
// read, and for a directory (which a stream would read as empty text).
std::string read_text_file(const std::filesystem::path& path);

}  // namespace glrmask
