// preprocessing: Table 1 of GreatGramma (paper 000) for every registered engine: offline
// preprocessing time and memory, and online per-token overhead, for Go, Java and Python under
// Llama-2, Llama-3 and Qwen3. Each (engine, grammar, tokenizer) runs in a fresh child process so
// its peak memory is its own.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "experiments/studies/child_process.h"
#include "experiments/studies/latency_summary.h"
#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "experiments/studies/teacher_forcing.h"

namespace glrmask::experiments {
namespace {}  // namespace

// argv: studies --child preprocessing ENGINE GRAMMAR INPUTS TOKENIZER PROGRAMS MAX_STEPS POLICY
// GRAMMAR is a corpus name (INPUTS "-") or a grammar file with its comma-separated INPUTS.
// Prints one tab-separated line: "ok", grammar compile s, engine build s, peak MiB after loading
// the inputs, peak MiB in all, vocabulary size, steps, mask ms/token, commit ms/token, failures,
// CPU s (user + system, every thread) of the grammar compile and engine build; or "refused", the
// stage, the message.
int run_preprocessing_child(int argc, char** argv) {
  if (argc != 10) {
    fmt::print("refused\targuments\texpected 7 arguments after --child preprocessing\n");
    return 2;
  }
  const std::string engine_name = argv[3], grammar_name = argv[4], inputs = argv[5],
                    tokenizer_name = argv[6];
  StudyOptions options;
  options.max_programs = std::stoul(argv[7]);
  options.max_steps = std::stoul(argv[8]);
  options.policy = argv[9] == std::string("-") ? "" : argv[9];
  if (inputs != "-") {
    options.grammar_file = grammar_name;
    std::stringstream list(inputs);
    for (std::string file; std::getline(list, file, ',');) options.input_files.emplace_back(file);
  }
  std::string stage = "loading the corpus";
  try {
    const Corpus corpus = options.grammar_file.empty()
                              ? load_named_corpus(grammar_name, options.max_programs)
                              : corpus_from_files(options.grammar_file, options.input_files);
    stage = "loading the tokenizer";
    const auto tokenizer = load_tokenizer(tokenizer_name);
    const std::vector<EncodedText> texts = encode_corpus(corpus, *tokenizer);
    const double loaded_mib = peak_memory_mib();
    stage = "compiling the grammar";
    const double cpu_started = process_cpu_seconds();
    auto started = std::chrono::steady_clock::now();
    const auto grammar = compile_corpus_grammar(corpus, options);
    const double compile_seconds = seconds_since(started);
    stage = "building the engine";
    started = std::chrono::steady_clock::now();
    // Called directly, not through make_engine(), so an engine's refusal reaches the table with
    // its reason.
    auto engine = make_mask_engine(engine_name, {grammar, &tokenizer->vocabulary}, "--engines");
    const double build_seconds = seconds_since(started);
    const double offline_cpu_seconds = process_cpu_seconds() - cpu_started;
    const double built_mib = peak_memory_mib();
    stage = "teacher forcing";
    const ForcingSetup setup{nullptr, options.max_steps};
    const Constraint constraint = study_constraint(*tokenizer, grammar, std::move(engine));
    std::vector<double> mask_us, commit_us;
    std::size_t failures = 0;
    for (const EncodedText& text : texts) {
      const ForcedRun run = force_text(setup, text.tokens, constraint);
      for (const StepRecord& step : run.steps) {
        mask_us.push_back(step.mask_us);
        commit_us.push_back(step.commit_us);
      }
      if (run.failure) ++failures;
    }
    fmt::print("ok\t{:.3f}\t{:.3f}\t{:.1f}\t{:.1f}\t{}\t{}\t{:.4f}\t{:.4f}\t{}\t{:.3f}\n",
               compile_seconds, build_seconds, loaded_mib, built_mib, tokenizer->vocabulary.size(),
               mask_us.size(), mean(mask_us) / 1000.0, mean(commit_us) / 1000.0, failures,
               offline_cpu_seconds);
    return 0;
  } catch (const std::exception& e) {
    std::string message = portable_message(e.what());
    for (char& c : message)
      if (c == '\t') c = ' ';
    fmt::print("refused\t{}\t{}\n", stage, message);
    return 1;
  }
}

int run_preprocessing(const StudyOptions& options) {
  const std::string study = "preprocessing";
  std::string inputs = "-";  // the child's INPUTS argument
  for (const auto& file : options.input_files)
    inputs = (inputs == "-" ? "" : inputs + ",") + file.string();
  std::vector<std::string> grammars = options.grammars.empty()
                                          ? std::vector<std::string>{"go", "java", "python"}
                                          : options.grammars;
  if (!options.grammar_file.empty()) grammars = {options.grammar_file.string()};
  const std::vector<std::string> tokenizers =
      tokenizer_names(options, {"llama2", "llama3", "qwen3"});
  const std::vector<std::string> engines = engine_names(options);
  // GreatGramma forced 5 programs per grammar; the small size forces one, cut at 100 steps.
  const std::size_t programs =
      options.max_programs != 0 ? options.max_programs : (options.small() ? 1 : 5);
  const std::size_t max_steps =
      options.max_steps != 0 ? options.max_steps : (options.small() ? 100 : 0);
  StudyReport report(options.out_dir,
                     "Offline preprocessing and online per-token overhead (GreatGramma Table 1)",
                     describe_run(study, options.size_name(), tokenizers));

  ResultTable detail({"tokenizer", "vocabulary", "grammar", "engine", "status", "compile_s",
                      "engine_build_s", "offline_s", "offline_cpu_s", "inputs_peak_mib", "peak_mib",
                      "steps", "mask_ms_per_token", "commit_ms_per_token", "online_ms_per_token",
                      "failures", "note"});
  // Table 1's layout: a row per (tokenizer, grammar), offline then online columns per engine.
  std::vector<std::string> columns = {"model", "V", "grammar"};
  for (const std::string& e : engines) columns.push_back(e + " offline s");
  for (const std::string& e : engines) columns.push_back(e + " peak MiB");
  for (const std::string& e : engines) columns.push_back(e + " online ms/token");
  ResultTable layout(columns);

  for (const std::string& tokenizer : tokenizers) {
    for (const std::string& grammar_arg : grammars) {
      // A grammar file is named by its stem in the tables, like a corpus by its name.
      const std::string grammar = options.grammar_file.empty()
                                      ? grammar_arg
                                      : std::filesystem::path(grammar_arg).stem().string();
      std::vector<std::string> offline, memory, online;
      std::string vocabulary = "";
      for (const std::string& engine : engines) {
        progress(study, fmt::format("{} / {} / {}", tokenizer, grammar, engine));
        const ChildResult child = run_self_as_child(
            {"preprocessing", engine, grammar_arg, inputs, tokenizer, std::to_string(programs),
             std::to_string(max_steps), options.policy.empty() ? "-" : options.policy});
        const std::vector<std::string> f = split_tabs(last_line(child.output));
        if (f.size() == 11 && f[0] == "ok") {
          const double offline_s = std::stod(f[1]) + std::stod(f[2]);
          const double online_ms = std::stod(f[7]) + std::stod(f[8]);
          vocabulary = f[5];
          detail.add_row({tokenizer_label(tokenizer), f[5], grammar, engine, "ok", f[1], f[2],
                          format_fixed(offline_s, 3), f[10], f[3], f[4], f[6], f[7], f[8],
                          format_fixed(online_ms, 4), f[9], ""});
          offline.push_back(format_fixed(offline_s, 2));
          memory.push_back(f[4]);
          online.push_back(format_fixed(online_ms, 3) + (f[9] != "0" ? " (failed)" : ""));
        } else {
          const std::string note = f.size() >= 3 && f[0] == "refused"
                                       ? fmt::format("refused while {}: {}", f[1], f[2])
                                       : fmt::format("child exited with {}: {}", child.exit_code,
                                                     last_line(child.output));
          detail.add_row({tokenizer_label(tokenizer), "", grammar, engine, "refused", "", "", "",
                          "", "", "", "", "", "", "", "", note});
          offline.push_back("refused");
          memory.push_back("refused");
          online.push_back("refused");
        }
      }
      std::vector<std::string> row = {tokenizer_label(tokenizer), vocabulary, grammar};
      for (auto* cells : {&offline, &memory, &online})
        row.insert(row.end(), cells->begin(), cells->end());
      layout.add_row(std::move(row));
    }
  }

  report.add_text(fmt::format(
      "Offline = compiling the grammar (lexer DFA, LALR automaton) + building the engine for the "
      "vocabulary (wall time; `offline_cpu_s` in the CSV is its user + system CPU time, every "
      "thread); loading the tokenizer is not counted. Peak MiB is the child process's VmHWM "
      "(tokenizer, encoder and corpus included; `inputs_peak_mib` in the CSV is the peak before "
      "the grammar was compiled). Online = mean get_mask + commit per teacher-forced token over "
      "{} program(s) per grammar{}, EOS step included. Each cell is a fresh process.",
      programs, max_steps != 0 ? fmt::format(", at most {} steps each", max_steps) : ""));
  report.add_table("table1", "Table 1 layout", layout);
  report.add_table("preprocessing", "Every measurement", detail);
  // Plot: offline seconds per (tokenizer, grammar) and engine, refused cells left out.
  std::vector<std::string> plot_columns = {"label"};
  for (const std::string& e : engines) plot_columns.push_back(e);
  ResultTable plot(plot_columns);
  for (const auto& row : layout.rows()) {
    std::vector<std::string> cells = {row[2] + " " + row[0]};
    for (std::size_t e = 0; e < engines.size(); ++e)
      cells.push_back(row[3 + e] == "refused" ? "NaN" : row[3 + e]);
    plot.add_row(std::move(cells));
  }
  report.add_data_table("plot", plot);
  const bool any_measured = std::any_of(detail.rows().begin(), detail.rows().end(),
                                        [](const auto& row) { return row[4] == "ok"; });
  if (!any_measured) {
    report.add_text("Every cell was refused: nothing to plot.");
    report.finish();
    return 1;
  }
  report.add_plot("preprocessing", "offline preprocessing time (grammar + engine build)",
                  fmt::format("set style data histogram\nset style histogram clustered gap 1\n"
                              "set style fill solid 0.8 border -1\nset yrange [0:*]\n"
                              "set xtics rotate by -30\nset ylabel 'seconds'\n"
                              "set key autotitle columnhead\n"
                              "plot for [i=2:{}] 'plot.csv' using i:xtic(1)",
                              plot_columns.size()));
  report.finish();
  return 0;
}

}  // namespace glrmask::experiments
