// Whole-file reading for the commands and loaders, and the one way the library writes a file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace glrmask {

// The file's bytes. Throws glrmask::Error (kIo) naming the path and the reason when it cannot be
// read, and for a directory (which a stream would read as empty text).
std::string read_text_file(const std::filesystem::path& path);

// Writes `bytes` as the file at `path`, replacing it whole: a new file in the same folder, created
// exclusively (O_EXCL, a random name, mode 0666 less the umask) so that no planted symbolic link
// or file of that name is followed or reused, then renamed over `path`, so a reader that has the
// old file open or mapped keeps its bytes. A `path` that exists and is not a regular file (a
// symbolic link, a folder, a FIFO, a device) is refused rather than replaced. Throws
// glrmask::Error (kIo) "PATH: cannot write the WHAT: REASON" naming the path given.
void write_file_replacing(std::string_view bytes, const std::filesystem::path& path,
                          std::string_view what);

}  // namespace glrmask
