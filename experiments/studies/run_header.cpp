#include "experiments/studies/run_header.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "experiments/studies/study_inputs.h"
#include "lib/core/settings.h"
#include "lib/tokenizer/tokenizer_choice.h"

namespace glrmask::experiments {
namespace {

// The first line of /proc/<file> whose key (before ':') is `key`, value trimmed; empty if none.
std::string proc_field(const char* file, std::string_view key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string_view name(line.data(), colon);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
    if (name != key) continue;
    std::string_view value(line);
    value.remove_prefix(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    return std::string(value);
  }
  return {};
}

// What `command` prints on its first line (trailing newline dropped); empty when it fails.
std::string first_output_line(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return {};
  std::array<char, 256> buffer{};
  std::string line;
  if (std::fgets(buffer.data(), buffer.size(), pipe.get()) != nullptr) line = buffer.data();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string git_commit() {
#ifdef GLRMASK_SOURCE_DIR
  const std::string git = fmt::format("git -C '{}' ", GLRMASK_SOURCE_DIR);
  std::string commit = first_output_line(git + "rev-parse --short HEAD 2>/dev/null");
  if (commit.empty()) return "unknown (not a git checkout)";
  // Tracked files changed since that commit make the numbers belong to no commit exactly.
  if (!first_output_line(git + "status --porcelain --untracked-files=no 2>/dev/null").empty())
    commit += " (with uncommitted changes)";
  return commit;
#else
  return "unknown";
#endif
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%d %H:%M UTC", &utc);
  return text.data();
}

std::string memory_gib() {
  // MemTotal is in kB.
  const std::string total = proc_field("/proc/meminfo", "MemTotal");
  const double kib = total.empty() ? 0.0 : std::stod(total);
  return fmt::format("{:.1f} GiB", kib / (1024.0 * 1024.0));
}

// The 1, 5 and 15 minute load averages from /proc/loadavg.
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return fmt::format("{} {} {}", one, five, fifteen);
}

// "name version" of the npm package a tokenizer.json was fetched in (package/models/...); for a
// padded vocabulary, the base's and each donor's joined by " + ".
std::string tokenizer_package(const std::string& tokenizer) {
  try {
    if (const auto padded = parse_padded_tokenizer_name(tokenizer)) {
      std::string packages = tokenizer_package(padded->base);
      for (const std::string& donor : padded->donors) packages += " + " + tokenizer_package(donor);
      return packages;
    }
    const std::filesystem::path json = resolve_tokenizer(tokenizer);
    for (const std::filesystem::path& candidate :
         {json.parent_path().parent_path() / "package.json", json.parent_path() / "package.json"}) {
      if (!std::filesystem::exists(candidate)) continue;
      simdjson::dom::parser parser;
      const simdjson::dom::element package = parser.load(candidate.string());
      std::string_view name, version;
      if (package["name"].get(name) == simdjson::SUCCESS &&
          package["version"].get(version) == simdjson::SUCCESS)
        return fmt::format("{} {}", name, version);
    }
    return "no package.json beside the tokenizer";
  } catch (const std::exception& e) {
    return fmt::format("unavailable ({})", e.what());
  }
}

}  // namespace

std::string RunHeader::to_text() const {
  std::string text;
  for (const auto& [key, value] : fields) text += fmt::format("{}: {}\n", key, value);
  return text;
}

std::string RunHeader::to_markdown() const {
  std::string text;
  for (const auto& [key, value] : fields) text += fmt::format("- **{}**: {}\n", key, value);
  return text;
}

std::string machine_summary() {
  return fmt::format("{}, {} cores, {}", proc_field("/proc/cpuinfo", "model name"),
                     std::thread::hardware_concurrency(), memory_gib());
}

RunHeader describe_run(const std::string& study, const std::string& size,
                       const std::vector<std::string>& tokenizers) {
  RunHeader header;
  header.fields = {
      {"study", study},
      {"size", size},
      {"date", utc_now()},
      {"commit", git_commit()},
      {"cpu", proc_field("/proc/cpuinfo", "model name")},
      {"cores", std::to_string(std::thread::hardware_concurrency())},
      {"memory", memory_gib()},
      // Other work on the machine inflates latencies; the load average says how much there was.
      {"load average at start", load_average()},
  };
  for (const std::string& tokenizer : tokenizers)
    header.fields.emplace_back("tokenizer " + tokenizer_label(tokenizer),
                               tokenizer_package(tokenizer));
  return header;
}

}  // namespace glrmask::experiments
