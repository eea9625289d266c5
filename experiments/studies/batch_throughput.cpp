// batch_throughput: masks per second for a batch of B concurrent sessions (B = 1, 2, 4, ..., 256)
// on all cores. Each round computes the masks of all B sessions in parallel (TBB, one engine per
// worker slot), then commits each session's next real token; sessions teacher-force different
// programs from staggered starting points and restart when their program ends.
#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <thread>

#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"

namespace glrmask::experiments {
namespace {

struct BatchSession {
  const EncodedText* text = nullptr;
  std::size_t next = 0;  // index of the next token; == size means EOS comes next
  std::optional<glr::Session> session;
};

// Starts `s` over at its text's beginning, then commits its first `skip` tokens (untimed).
void restart(BatchSession& s, const std::shared_ptr<const glr::CompiledGrammar>& grammar,
             const Vocabulary& vocabulary, std::size_t skip) {
  s.session.emplace(grammar, &vocabulary);
  s.next = 0;
  for (; s.next < skip && s.next < s.text->tokens.size(); ++s.next)
    s.session->commit(s.text->tokens[s.next]);
}

}  // namespace

int run_batch_throughput(const StudyOptions& options) {
  const std::string study = "batch_throughput";
  const std::vector<Corpus> corpora =
      load_corpora(options, {"json", "go"}, options.small() ? 4 : 0);
  const std::vector<std::string> tokenizers = tokenizer_names(options, {"llama3"});
  const std::vector<std::string> engines = engine_names(options, {"oracle"});
  const std::size_t rounds =
      options.max_steps != 0 ? options.max_steps : (options.small() ? 32 : 128);
  StudyReport report(options.out_dir, "Batch throughput: masks per second for B sessions",
                     describe_run(study, options.size_name(), tokenizers));
  ResultTable table({"grammar", "tokenizer", "engine", "batch", "rounds", "masks", "mask_seconds",
                     "masks_per_s", "round_seconds", "steps_per_s"});
  std::vector<std::string> plot_columns = {"batch"};
  std::vector<std::vector<double>> plot_values;  // per series, per batch size

  std::vector<std::size_t> batches;
  for (std::size_t b = 1; b <= 256; b *= 2) batches.push_back(b);

  for (const Corpus& corpus : corpora) {
    const auto grammar = compile_corpus_grammar(corpus, options);
    for (const std::string& tokenizer_arg : tokenizers) {
      const auto tokenizer = load_tokenizer(tokenizer_arg);
      const std::string& tokenizer_name = tokenizer->name;
      const Vocabulary& vocabulary = tokenizer->vocabulary;
      const std::vector<EncodedText> texts = encode_corpus(corpus, *tokenizer);
      if (texts.empty())
        throw Error(fmt::format("corpus {}: no texts", corpus.name), ErrorCode::kInvalidArgument);
      for (const std::string& engine_name : engines) {
        progress(study, fmt::format("{} / {} / {}: building one engine per worker slot",
                                    corpus.name, tokenizer_name, engine_name));
        // One engine and one mask per worker slot of the arena, all built before any timing
        // (a lazily built engine would land inside the first timed round that uses its thread).
        const auto slots = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
        std::vector<std::unique_ptr<mask::MaskEngine>> slot_engines;
        std::vector<DenseMask> slot_masks;
        for (std::size_t slot = 0; slot < slots; ++slot) {
          slot_engines.push_back(make_engine(engine_name, grammar, vocabulary));
          if (!slot_engines.back()) break;
          slot_masks.emplace_back(static_cast<std::uint32_t>(vocabulary.size()));
        }
        if (!slot_engines.back()) continue;
        plot_columns.push_back(fmt::format("{} {} {}", engine_name, corpus.name, tokenizer_name));
        plot_values.emplace_back();
        for (const std::size_t batch : batches) {
          std::vector<BatchSession> sessions(batch);
          for (std::size_t i = 0; i < batch; ++i) {
            sessions[i].text = &texts[i % texts.size()];
            restart(sessions[i], grammar, vocabulary,
                    (i * 37) % (sessions[i].text->tokens.size() + 1));
          }
          const auto mask_all = [&] {
            tbb::parallel_for(std::size_t{0}, batch, [&](std::size_t i) {
              // An engine with a parallel loop inside (the oracle) must not let this thread take
              // another session's mask meanwhile: it would reuse the slot's engine re-entrantly.
              tbb::this_task_arena::isolate([&] {
                const auto slot =
                    static_cast<std::size_t>(tbb::this_task_arena::current_thread_index());
                slot_engines[slot]->fill_mask(*sessions[i].session, slot_masks[slot].words());
              });
            });
          };
          mask_all();  // warm-up: caches and first-touch allocations
          double mask_seconds = 0;
          const auto started = std::chrono::steady_clock::now();
          for (std::size_t round = 0; round < rounds; ++round) {
            const auto mask_started = std::chrono::steady_clock::now();
            mask_all();
            mask_seconds += seconds_since(mask_started);
            tbb::parallel_for(std::size_t{0}, batch, [&](std::size_t i) {
              BatchSession& s = sessions[i];
              if (s.next < s.text->tokens.size()) {
                s.session->commit(s.text->tokens[s.next++]);
              } else {
                restart(s, grammar, vocabulary, 0);  // EOS would end it: start the text over
              }
            });
          }
          const double round_seconds = seconds_since(started);
          const double masks = static_cast<double>(batch * rounds);
          table.add_row({corpus.name, tokenizer_name, engine_name, std::to_string(batch),
                         std::to_string(rounds), std::to_string(batch * rounds),
                         format_fixed(mask_seconds, 3), format_fixed(masks / mask_seconds, 0),
                         format_fixed(round_seconds, 3), format_fixed(masks / round_seconds, 0)});
          plot_values.back().push_back(masks / mask_seconds);
          progress(study, fmt::format("{} / {} / {}: B={} {:.0f} masks/s", corpus.name,
                                      tokenizer_name, engine_name, batch, masks / mask_seconds));
        }
      }
    }
  }
  ResultTable plot(plot_columns);
  for (std::size_t b = 0; b < batches.size(); ++b) {
    std::vector<std::string> row = {std::to_string(batches[b])};
    for (const auto& series : plot_values) row.push_back(format_fixed(series[b], 1));
    plot.add_row(std::move(row));
  }

  report.add_text(fmt::format(
      "{} worker threads (TBB). `masks_per_s` counts only the mask phase of each round; "
      "`steps_per_s` divides by the whole round (masks and commits). Each session commits its "
      "program's real tokens; the first session of a batch starts at the program's beginning, "
      "session i after 37·i tokens.",
      std::thread::hardware_concurrency()));
  report.add_table("batch_throughput", "Throughput per batch size", table);
  report.add_data_table("plot", plot);
  report.add_plot(
      "batch_throughput", "masks per second against batch size",
      fmt::format("set logscale x 2\nset logscale y\nset xlabel 'sessions in the batch (B)'\n"
                  "set ylabel 'masks per second'\nset key autotitle columnhead\n"
                  "plot for [i=2:{}] 'plot.csv' using 1:i with linespoints "
                  "linewidth 2 pointtype 7",
                  plot_columns.size()));
  report.finish();
  return 0;
}

}  // namespace glrmask::experiments
