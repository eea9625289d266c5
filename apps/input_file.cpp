#include "apps/input_file.h"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "lib/core/error.h"
#include "lib/core/file_io.h"

namespace glrmask::app {

std::string read_input_file(const std::string& file) {
  if (file == "-")
    return {std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  return read_text_file(file);
}

}  // namespace glrmask::app
