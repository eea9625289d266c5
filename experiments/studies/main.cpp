// The experiment harness: `studies STUDY [options]` runs one study and writes its report under
// --out (experiments/run picks experiments/results/<study>/<size> by default). docs/experiments.md
// describes every study and its sizes.
#include <fmt/format.h>

#include <cstring>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>

#include "experiments/studies/studies.h"
#include "lib/core/error.h"

namespace glrmask::experiments {
namespace {

constexpr std::string_view kUsage =
    "usage: studies STUDY [--size small|full] [--engines a,b] [--grammars "
    "go,java,sql,json,python]\n"
    "               [--tokenizers llama2,llama3,...] [--out DIR] [--policy glr|lark]\n"
    "               [--max-programs N] [--skip-programs N] [--max-steps N]\n"
    "               [--grammar-file G.lark --inputs F1,F2]\n"
    "               [--reference ENGINE] (exactness: what the engines are compared with)\n"
    "               [--mask-output view|buffer] (get_mask timed as mask_view, the default,\n"
    "               or as fill_mask into the caller's buffer)\n"
    "               [--mask-read count|bit] (between steps, count the mask's tokens, the\n"
    "               default, or test only the next token's bit)\n"
    "studies: tail_latency exactness vocab_scaling batch_throughput preprocessing terminal_dwa\n"
    "         token_classes psc_tables jump_forward ambiguity json_schema json_schema_suite\n";

struct StudyEntry {
  std::string_view name;
  int (*run)(const StudyOptions&);
};

constexpr StudyEntry kStudies[] = {
    {"tail_latency", run_tail_latency},   {"exactness", run_exactness},
    {"vocab_scaling", run_vocab_scaling}, {"batch_throughput", run_batch_throughput},
    {"preprocessing", run_preprocessing}, {"terminal_dwa", run_terminal_dwa},
    {"token_classes", run_token_classes}, {"psc_tables", run_psc_tables},
    {"jump_forward", run_jump_forward},   {"ambiguity", run_ambiguity},
    {"json_schema", run_json_schema},     {"json_schema_suite", run_json_schema_suite},
};

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> parts;
  std::stringstream stream(list);
  for (std::string part; std::getline(stream, part, ',');)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

std::size_t parse_count(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  unsigned long value = 0;
  try {
    value = std::stoul(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw Error(fmt::format("option {}: expected a count, got '{}'", option, text),
                ErrorCode::kInvalidArgument);
  return value;
}

StudyOptions parse_options(int argc, char** argv) {
  if (argc < 2) throw Error(std::string(kUsage), ErrorCode::kInvalidArgument);
  StudyOptions options;
  options.study = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string option = argv[i];
    if (i + 1 >= argc)
      throw Error(fmt::format("option {}: missing value\n{}", option, kUsage),
                  ErrorCode::kInvalidArgument);
    const std::string value = argv[++i];
    if (option == "--size") {
      if (value != "small" && value != "full")
        throw Error(fmt::format("option --size: expected small or full, got '{}'", value),
                    ErrorCode::kInvalidArgument);
      options.size = value == "small" ? StudySize::kSmall : StudySize::kFull;
    } else if (option == "--engines") {
      options.engines = split_list(value);
    } else if (option == "--grammars") {
      options.grammars = split_list(value);
    } else if (option == "--tokenizers") {
      options.tokenizers = split_list(value);
    } else if (option == "--out") {
      options.out_dir = value;
    } else if (option == "--policy") {
      options.policy = value;
    } else if (option == "--max-programs") {
      options.max_programs = parse_count(option, value);
    } else if (option == "--skip-programs") {
      options.skip_programs = parse_count(option, value);
    } else if (option == "--max-steps") {
      options.max_steps = parse_count(option, value);
    } else if (option == "--reference") {
      options.reference = value;
    } else if (option == "--mask-output") {
      if (value != "view" && value != "buffer")
        throw Error(fmt::format("option --mask-output: expected view or buffer, got '{}'", value),
                    ErrorCode::kInvalidArgument);
      options.mask_into_buffer = value == "buffer";
    } else if (option == "--mask-read") {
      if (value != "count" && value != "bit")
        throw Error(fmt::format("option --mask-read: expected count or bit, got '{}'", value),
                    ErrorCode::kInvalidArgument);
      options.read_whole_mask = value == "count";
    } else if (option == "--grammar-file") {
      options.grammar_file = value;
    } else if (option == "--inputs") {
      for (const std::string& file : split_list(value)) options.input_files.emplace_back(file);
    } else {
      throw Error(fmt::format("unknown option '{}'\n{}", option, kUsage),
                  ErrorCode::kInvalidArgument);
    }
  }
  if (options.grammar_file.empty() != options.input_files.empty())
    throw Error("options --grammar-file and --inputs go together", ErrorCode::kInvalidArgument);
  if (options.out_dir.empty())
    options.out_dir =
        std::filesystem::path("experiments/results") / options.study / options.size_name();
  return options;
}

int run(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--child") == 0) {
    if (std::strcmp(argv[2], "preprocessing") == 0) return run_preprocessing_child(argc, argv);
    if (std::strcmp(argv[2], "terminal_dwa") == 0) return run_terminal_dwa_child(argc, argv);
    if (std::strcmp(argv[2], "psc_tables") == 0) return run_psc_tables_child(argc, argv);
  }
  const StudyOptions options = parse_options(argc, argv);
  for (const StudyEntry& entry : kStudies)
    if (entry.name == options.study) {
      const int status = entry.run(options);
      std::cerr << "[" << options.study << "] results in " << options.out_dir.string() << "\n";
      return status;
    }
  throw Error(fmt::format("unknown study '{}'\n{}", options.study, kUsage),
              ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace glrmask::experiments

int main(int argc, char** argv) {
  try {
    return glrmask::experiments::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "studies: " << e.what() << "\n";
    return 2;
  }
}
