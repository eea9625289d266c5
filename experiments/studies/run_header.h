// The header every study writes beside its results: which machine, when, which commit and which
// tokenizer packages, so a number in a report can always be traced to where it was measured.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace glrmask::experiments {

struct RunHeader {
  // (key, value) in a fixed order: study, size, date, commit, cpu, cores, memory, tokenizers...
  std::vector<std::pair<std::string, std::string>> fields;

  // "key: value" lines, for header.txt.
  std::string to_text() const;
  // A Markdown bullet list, for the top of the study's report.
  std::string to_markdown() const;
};

// Reads /proc/cpuinfo and /proc/meminfo, the clock, `git rev-parse` of the source tree and the
// package.json version of each tokenizer (names from the setup cache or tokenizer.json paths).
RunHeader describe_run(const std::string& study, const std::string& size,
                       const std::vector<std::string>& tokenizers);

// "CPU model, N cores, M GiB" on one line (for plot titles and reports).
std::string machine_summary();

}  // namespace glrmask::experiments
