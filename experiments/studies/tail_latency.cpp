// tail_latency: per-step get_mask (fill_mask) and commit latency of every engine over
// teacher-forced corpus programs, per grammar and tokenizer: percentiles, histograms, the
// engines' own per-step counters, and the steps where a long hyphen-run token was allowed.
#include <fmt/format.h>

#include <fstream>
#include <map>

#include "experiments/studies/latency_histogram.h"
#include "experiments/studies/latency_summary.h"
#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "experiments/studies/teacher_forcing.h"
#include "lib/core/error.h"

namespace glrmask::experiments {
namespace {

// Counter values of one (grammar, tokenizer, engine), by counter name.
using CounterSamples = std::map<std::string, std::vector<double>>;

void collect_counters(const std::string& formatted, CounterSamples& samples) {
  std::size_t start = 0;
  while (start < formatted.size()) {
    std::size_t end = formatted.find(';', start);
    if (end == std::string::npos) end = formatted.size();
    const std::string item = formatted.substr(start, end - start);
    if (const std::size_t eq = item.find('='); eq != std::string::npos)
      samples[item.substr(0, eq)].push_back(std::stod(item.substr(eq + 1)));
    start = end + 1;
  }
}

}  // namespace

int run_tail_latency(const StudyOptions& options) {
  const std::string study = "tail_latency";
  const std::vector<Corpus> corpora =
      load_corpora(options, {"go", "java", "sql", "json"}, options.small() ? 2 : 0);
  const std::vector<std::string> tokenizers = tokenizer_names(
      options, options.small() ? std::vector<std::string>{"llama3"} : full_study_tokenizers());
  const std::vector<std::string> engines = engine_names(options);
  StudyReport report(
      options.out_dir, "Tail latency of get_mask and commit",
      with_mask_output(describe_run(study, options.size_name(), tokenizers), options));

  std::vector<std::string> summary_columns = {"grammar", "tokenizer", "engine", "programs",
                                              "steps",   "failures",  "build_s"};
  for (const std::string& c : latency_column_names()) summary_columns.push_back("mask_" + c);
  for (const std::string& c : latency_column_names()) summary_columns.push_back("commit_" + c);
  summary_columns.insert(summary_columns.end(),
                         {"hyphen_run_steps", "hyphen_run_mask_mean", "other_mask_mean"});
  ResultTable summary(summary_columns);
  // Per-step rows go straight to disk: a full run has millions of them.
  std::ofstream steps_file(report.dir() / "steps.csv", std::ios::binary);
  steps_file << csv_line({"grammar", "tokenizer", "engine", "program", "step", "byte_offset",
                          "mask_us", "commit_us", "mask_tokens", "hyphen_run", "counters"});
  ResultTable counters_table(
      {"grammar", "tokenizer", "engine", "counter", "mean", "p50", "p99", "max"});
  ResultTable failures({"grammar", "tokenizer", "engine", "program", "failure"});
  std::vector<LatencySeries> mask_series, commit_series;

  for (const Corpus& corpus : corpora) {
    progress(study, fmt::format("compiling {} ({} texts)", corpus.name, corpus.texts.size()));
    const auto grammar = compile_corpus_grammar(corpus, options);
    for (const std::string& tokenizer_arg : tokenizers) {
      const auto tokenizer = load_tokenizer(tokenizer_arg);
      const std::string& tokenizer_name = tokenizer->name;
      const std::vector<EncodedText> texts = encode_corpus(corpus, *tokenizer);
      const std::vector<TokenId> hyphen_tokens = hyphen_run_tokens(tokenizer->vocabulary);
      const ForcingSetup setup{&hyphen_tokens, options.max_steps, options.mask_into_buffer,
                               options.read_whole_mask};
      for (const std::string& engine_name : engines) {
        const auto build_started = std::chrono::steady_clock::now();
        auto engine = make_engine(engine_name, grammar, tokenizer->vocabulary);
        if (!engine) continue;
        const double build_seconds = seconds_since(build_started);
        const Constraint constraint = study_constraint(*tokenizer, grammar, std::move(engine));
        std::vector<double> mask_us, commit_us, hyphen_mask_us, other_mask_us;
        CounterSamples counter_samples;
        std::size_t failure_count = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
          const EncodedText& text = texts[i];
          progress(study, fmt::format("{} / {} / {}: {} ({} of {}, {} tokens)", corpus.name,
                                      tokenizer_name, engine_name, text.text->name, i + 1,
                                      texts.size(), text.tokens.size()));
          const ForcedRun run = force_text(setup, text.tokens, constraint);
          for (const StepRecord& step : run.steps) {
            mask_us.push_back(step.mask_us);
            (step.hyphen_run_allowed ? hyphen_mask_us : other_mask_us).push_back(step.mask_us);
            if (step.commit_us > 0) commit_us.push_back(step.commit_us);
            collect_counters(step.counters, counter_samples);
            steps_file << csv_line({corpus.name, tokenizer_name, engine_name, text.text->name,
                                    std::to_string(step.step), std::to_string(step.byte_offset),
                                    format_fixed(step.mask_us, 2), format_fixed(step.commit_us, 2),
                                    std::to_string(step.mask_tokens),
                                    step.hyphen_run_allowed ? "1" : "0", step.counters});
          }
          if (run.failure) {
            ++failure_count;
            failures.add_row(
                {corpus.name, tokenizer_name, engine_name, text.text->name, *run.failure});
          }
        }
        std::vector<std::string> row = {corpus.name,
                                        tokenizer_name,
                                        engine_name,
                                        std::to_string(texts.size()),
                                        std::to_string(mask_us.size()),
                                        std::to_string(failure_count),
                                        format_fixed(build_seconds, 2)};
        for (std::string& cell : latency_cells(mask_us)) row.push_back(std::move(cell));
        for (std::string& cell : latency_cells(commit_us)) row.push_back(std::move(cell));
        row.push_back(std::to_string(hyphen_mask_us.size()));
        row.push_back(hyphen_mask_us.empty() ? "" : format_fixed(mean(hyphen_mask_us), 1));
        row.push_back(other_mask_us.empty() ? "" : format_fixed(mean(other_mask_us), 1));
        summary.add_row(std::move(row));
        for (const auto& [name, values] : counter_samples) {
          const std::vector<std::string> cells = latency_cells(values, 2);
          counters_table.add_row({corpus.name, tokenizer_name, engine_name, name, cells[0],
                                  cells[1], cells[3], cells[5]});
        }
        const std::string series =
            fmt::format("{} {} {}", engine_name, corpus.name, tokenizer_name);
        mask_series.push_back({series, std::move(mask_us)});
        commit_series.push_back({series, std::move(commit_us)});
      }
    }
  }

  report.add_text(
      "Teacher forcing: every token of each program, then EOS; one mask and one commit per step, "
      "each timed alone (µs, nearest-rank percentiles). `hyphen_run_steps`: steps whose mask "
      "allowed a token holding 8 or more '-' in a row; the last two columns compare the mean "
      "mask latency of those steps with the others.");
  report.add_table("summary", "Latency per engine, grammar and tokenizer (µs)", summary);
  if (!counters_table.rows().empty())
    report.add_table("counters", "Engine counters per step", counters_table);
  else
    report.add_text("No engine in this run reports per-step counters.");
  if (!failures.rows().empty()) report.add_table("failures", "Rejected steps", failures);
  steps_file.close();
  if (!steps_file)
    throw Error(fmt::format("{}: cannot write", (report.dir() / "steps.csv").string()),
                ErrorCode::kIo);
  report.add_data_table("mask_histogram", latency_histogram(mask_series));
  report.add_data_table("commit_histogram", latency_histogram(commit_series));
  const std::string histogram_plot =
      "set logscale x\nset xlabel 'latency (us, bucket start)'\nset ylabel 'fraction of steps'\n"
      "set key autotitle columnhead\n"
      "plot for [i=2:{}] '{}' using 1:i with steps linewidth 2\n";
  report.add_plot(
      "mask_histogram", "get_mask latency per step",
      fmt::format(fmt::runtime(histogram_plot), mask_series.size() + 1, "mask_histogram.csv"));
  report.add_plot(
      "commit_histogram", "commit latency per step",
      fmt::format(fmt::runtime(histogram_plot), commit_series.size() + 1, "commit_histogram.csv"));
  report.finish();
  return failures.rows().empty() ? 0 : 1;
}

}  // namespace glrmask::experiments
