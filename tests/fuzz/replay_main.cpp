// The replay driver: runs a fuzz target's LLVMFuzzerTestOneInput over stored inputs, with the
// ordinary compiler and no libFuzzer, so the test suite replays the corpus and every crash
// reproducer as regression tests (tests/fuzz/README.md). Each argument is a file or a folder
// (every regular file in it, sorted, so runs are reproducible). A finding aborts the program;
// otherwise it prints how many inputs it ran and exits 0. A folder that is missing or empty is
// an error, so a moved corpus cannot turn the test into one that checks nothing.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char* argv[]) {
  std::size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path argument = argv[i];
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(argument)) {
      for (const auto& entry : std::filesystem::directory_iterator(argument))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
    } else if (std::filesystem::is_regular_file(argument)) {
      files.push_back(argument);
    }
    if (files.empty()) {
      std::fprintf(stderr, "replay: %s holds no input\n", argv[i]);
      return 1;
    }
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++inputs;
    }
  }
  std::printf("replay: %zu inputs, no finding\n", inputs);
  return 0;
}
