// vocab_scaling: get_mask latency against vocabulary size (Llama-2 32k, Llama-3 128k, Qwen3 152k,
// Gemma-3 262k) per engine, on the same teacher-forced programs for every tokenizer.
#include <fmt/format.h>

#include "experiments/studies/latency_summary.h"
#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "experiments/studies/teacher_forcing.h"

namespace glrmask::experiments {

int run_vocab_scaling(const StudyOptions& options) {
  const std::string study = "vocab_scaling";
  const std::vector<Corpus> corpora =
      load_corpora(options, {"json", "go"}, options.small() ? 1 : 5);
  const std::vector<std::string> tokenizers = tokenizer_names(options, full_study_tokenizers());
  const std::vector<std::string> engines = engine_names(options);
  StudyOptions forcing = options;
  if (forcing.max_steps == 0 && options.small()) forcing.max_steps = 150;
  StudyReport report(
      options.out_dir, "get_mask latency against vocabulary size",
      with_mask_output(describe_run(study, options.size_name(), tokenizers), options));

  std::vector<std::string> columns = {"grammar",    "engine", "tokenizer",
                                      "vocabulary", "steps",  "failures"};
  for (const std::string& c : latency_column_names()) columns.push_back("mask_" + c);
  ResultTable table(columns);
  // Wide layout for the plot: one row per tokenizer, one column per (engine, grammar).
  std::vector<std::string> plot_columns = {"vocabulary"};
  for (const Corpus& corpus : corpora)
    for (const std::string& engine : engines)
      plot_columns.push_back(fmt::format("{} {}", engine, corpus.name));
  ResultTable plot(plot_columns);
  std::vector<std::vector<std::string>> plot_rows(tokenizers.size());

  std::vector<std::shared_ptr<const glr::CompiledGrammar>> grammars;
  for (const Corpus& corpus : corpora) grammars.push_back(compile_corpus_grammar(corpus, options));
  for (std::size_t t = 0; t < tokenizers.size(); ++t) {
    const auto tokenizer = load_tokenizer(tokenizers[t]);
    const std::size_t vocabulary_size = tokenizer->vocabulary.size();
    plot_rows[t].push_back(std::to_string(vocabulary_size));
    for (std::size_t g = 0; g < corpora.size(); ++g) {
      const std::vector<EncodedText> texts = encode_corpus(corpora[g], *tokenizer);
      const ForcingSetup setup{nullptr, forcing.max_steps, options.mask_into_buffer,
                               options.read_whole_mask};
      for (const std::string& engine_name : engines) {
        progress(study, fmt::format("{} / {} ({} tokens) / {}", corpora[g].name, tokenizer->name,
                                    vocabulary_size, engine_name));
        auto engine = make_engine(engine_name, grammars[g], tokenizer->vocabulary);
        if (!engine) continue;
        const Constraint constraint = study_constraint(*tokenizer, grammars[g], std::move(engine));
        std::vector<double> mask_us;
        std::size_t failures = 0;
        for (const EncodedText& text : texts) {
          const ForcedRun run = force_text(setup, text.tokens, constraint);
          for (const StepRecord& step : run.steps) mask_us.push_back(step.mask_us);
          if (run.failure) ++failures;
        }
        std::vector<std::string> row = {corpora[g].name,
                                        engine_name,
                                        tokenizer->name,
                                        std::to_string(vocabulary_size),
                                        std::to_string(mask_us.size()),
                                        std::to_string(failures)};
        for (std::string& cell : latency_cells(mask_us)) row.push_back(std::move(cell));
        table.add_row(std::move(row));
        plot_rows[t].push_back(format_fixed(mean(mask_us), 2));
      }
    }
  }
  for (auto& row : plot_rows) plot.add_row(std::move(row));

  report.add_text(fmt::format(
      "The same programs teacher-forced with every tokenizer ({} per grammar{}); mask latency in "
      "µs per step, EOS step included.",
      corpora.empty() ? 0 : corpora.front().texts.size(),
      forcing.max_steps != 0 ? fmt::format(", at most {} steps each", forcing.max_steps) : ""));
  report.add_table("vocab_scaling", "Mask latency per vocabulary size (µs)", table);
  report.add_data_table("plot", plot);
  report.add_plot("vocab_scaling", "mean get_mask latency against vocabulary size",
                  fmt::format("set logscale y\nset xlabel 'vocabulary size (tokens)'\n"
                              "set ylabel 'mean get_mask latency (us)'\n"
                              "set key autotitle columnhead\n"
                              "plot for [i=2:{}] 'plot.csv' using 1:i with linespoints "
                              "linewidth 2 pointtype 7",
                              plot_columns.size()));
  report.finish();
  return 0;
}

}  // namespace glrmask::experiments
