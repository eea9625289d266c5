// exactness: on every teacher-forced step of every corpus program, each engine's mask against the
// oracle's (or --reference's), bit for bit, EOS step included, with the library's teacher-forcing
// loop (harness/teacher_forcing.h: the reference's matcher leads, one matcher per engine follows).
// Programs run in parallel (TBB); every worker thread builds its own engines, since an engine
// keeps per-call scratch state (the wfa's compilation is built once per (grammar, tokenizer) and
// shared by the workers' engines).
//
// Runs against the oracle take hours on the full corpora, so nothing waits for the end: each
// program's row is appended to programs.csv (and flushed) as it finishes, and the tables are
// rewritten after every (grammar, tokenizer) pair; a stopped run keeps what it checked.
#include <fmt/format.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>

#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "experiments/studies/teacher_forcing.h"
#include "harness/teacher_forcing.h"
#include "lib/core/error.h"
#include "lib/core/escape.h"
#include "mask/compiled/compiled_mask.h"

namespace glrmask::experiments {
namespace {

constexpr std::size_t kTokensListed = 4;

std::string printable_bytes(std::string_view bytes) {
  return escape_bytes(bytes, {.keep_utf8 = false, .hex_controls = true, .hex_also = "\\\""});
}

struct MismatchNote {
  std::size_t program = 0;  // index in the corpus: the lowest (program, step) is reported
  std::size_t step = 0;
  std::string text;
};

// Per engine, over all programs of one (grammar, tokenizer).
struct EngineTally {
  std::atomic<std::uint64_t> steps{0};
  std::atomic<std::uint64_t> mismatch_steps{0};
  std::mutex mutex;
  std::optional<MismatchNote> first;
  // The engine's per-step counters (MaskEngine::last_step_counters), summed over the steps, and
  // the number of steps where each was nonzero; in the engine's order.
  std::vector<std::pair<std::string, std::pair<double, std::uint64_t>>> counters;

  void add_counters(const std::vector<std::pair<std::string, std::pair<double, std::uint64_t>>>&
                        program_counters) {
    std::lock_guard lock(mutex);
    if (counters.empty())
      counters = program_counters;
    else
      for (std::size_t c = 0; c < counters.size() && c < program_counters.size(); ++c) {
        counters[c].second.first += program_counters[c].second.first;
        counters[c].second.second += program_counters[c].second.second;
      }
  }

  void note(MismatchNote mismatch) {
    std::lock_guard lock(mutex);
    if (!first || std::tie(mismatch.program, mismatch.step) < std::tie(first->program, first->step))
      first = std::move(mismatch);
  }
};

std::string describe_mismatch(const Vocabulary& vocabulary, const MaskMismatch& mismatch,
                              const std::string& program) {
  std::string listed;
  for (std::size_t i = 0; i < mismatch.first.size() && i < kTokensListed; ++i) {
    const MaskMismatch::Token& token = mismatch.first[i];
    listed += fmt::format("{}{} {} ({})", i == 0 ? "" : "; ", token.id,
                          printable_bytes(vocabulary.bytes(static_cast<TokenId>(token.id))),
                          token.in_leader ? "only reference" : "only engine");
  }
  return fmt::format("{} step {} byte {}: {} tokens differ: {}", program, mismatch.step,
                     mismatch.byte_offset, mismatch.differing, listed);
}

}  // namespace

int run_exactness(const StudyOptions& options) {
  const std::string study = "exactness";
  const std::vector<Corpus> corpora =
      load_corpora(options, {"go", "java", "sql", "json"}, options.small() ? 2 : 0);
  const std::vector<std::string> tokenizers =
      tokenizer_names(options, options.small() ? std::vector<std::string>{"llama2", "llama3"}
                                               : full_study_tokenizers());
  const std::string& reference = options.reference;
  const std::vector<std::string> engines = engine_names(options, {"oracle", reference});
  StudyReport report(options.out_dir,
                     fmt::format("Exactness: every engine's mask against the {}'s", reference),
                     describe_run(study, options.size_name(), tokenizers));
  report.write_header();

  ResultTable table({"grammar", "tokenizer", "engine", "reference", "programs", "steps",
                     "mismatch_steps", "reference_rejections", "seconds", "engine_build_s",
                     "steps_per_s", "first_mismatch"});
  ResultTable rejections({"grammar", "tokenizer", "program", "rejection"});
  ResultTable counter_table(
      {"grammar", "tokenizer", "engine", "counter", "total", "steps_nonzero"});
  ResultTable plot_data({"label", "steps", "mismatch_steps"});

  // One row per (program, engine) as each program finishes, flushed: what a stopped run checked.
  const std::vector<std::string> program_columns = {
      "grammar", "tokenizer", "program", "engine", "steps", "mismatch_steps", "seconds"};
  std::ofstream program_rows(report.dir() / "programs.csv", std::ios::binary);
  program_rows << csv_line(program_columns) << std::flush;
  std::mutex program_rows_mutex;

  for (const Corpus& corpus : corpora) {
    progress(study, fmt::format("compiling {} ({} texts)", corpus.name, corpus.texts.size()));
    const auto grammar = compile_corpus_grammar(corpus, options);
    for (const std::string& tokenizer_arg : tokenizers) {
      const auto tokenizer = load_tokenizer(tokenizer_arg);
      const std::string& tokenizer_name = tokenizer->name;
      const Vocabulary& vocabulary = tokenizer->vocabulary;
      const std::vector<EncodedText> texts = encode_corpus(corpus, *tokenizer);
      std::vector<EngineTally> tallies(engines.size());
      std::atomic<std::uint64_t> reference_rejections{0};
      std::atomic<std::size_t> done{0};
      std::mutex rejection_mutex;
      std::vector<std::pair<std::size_t, std::string>> rejection_notes;

      // The wfa's compilation (seconds and, on Python, over a GiB) is built once and shared.
      double build_seconds = 0;  // the shared compilation plus every worker thread's builds
      std::shared_ptr<const mask::CompiledMask> compiled;
      if (std::find(engines.begin(), engines.end(), "wfa") != engines.end() || reference == "wfa") {
        const auto build_started = std::chrono::steady_clock::now();
        try {
          compiled = mask::CompiledMask::compile(grammar, vocabulary);
        } catch (const Error& error) {
          // make_engine reports the refusal again per worker and skips the engine.
          fmt::print(stderr, "*** the wfa compilation failed: {}\n", error.what());
        }
        build_seconds += seconds_since(build_started);
        progress(study, fmt::format("{} / {}: wfa compiled in {} s", corpus.name, tokenizer_name,
                                    format_fixed(seconds_since(build_started), 1)));
      }
      const auto build = [&](const std::string& name) {
        return name == "wfa" && compiled ? make_engine(name, grammar, vocabulary, compiled)
                                         : make_engine(name, grammar, vocabulary);
      };

      // Each worker thread's matchers run its own engines (an engine keeps per-call scratch); a
      // constraint over each lends it to the library's matchers and teacher-forcing loop.
      struct WorkerConstraints {
        std::optional<Constraint> reference;
        std::vector<std::optional<Constraint>> compared;  // empty where the engine refused
      };
      std::mutex build_mutex;
      tbb::enumerable_thread_specific<WorkerConstraints> workers([&] {
        const auto build_started = std::chrono::steady_clock::now();
        WorkerConstraints w;
        auto reference_engine = build(reference);
        if (!reference_engine)
          throw Error(
              fmt::format("the reference engine {} refuses the {} grammar", reference, corpus.name),
              ErrorCode::kUnsupported);
        w.reference = study_constraint(*tokenizer, grammar, std::move(reference_engine));
        for (const std::string& name : engines) {
          auto engine = build(name);
          w.compared.push_back(engine ? std::optional<Constraint>(study_constraint(
                                            *tokenizer, grammar, std::move(engine)))
                                      : std::nullopt);
        }
        std::lock_guard lock(build_mutex);
        build_seconds += seconds_since(build_started);
        return w;
      });

      TeacherForcingOptions forcing;
      forcing.mask_call = MaskCall::kFill;
      if (options.max_steps != 0) forcing.max_steps = options.max_steps;
      const auto started = std::chrono::steady_clock::now();
      tbb::parallel_for(std::size_t{0}, texts.size(), [&](std::size_t index) {
        // The oracle runs a parallel loop of its own; isolation keeps this thread from taking
        // another program while it waits there, which would reuse its engines re-entrantly.
        tbb::this_task_arena::isolate([&] {
          const auto program_started = std::chrono::steady_clock::now();
          const EncodedText& text = texts[index];
          WorkerConstraints& w = workers.local();
          Matcher leader(*w.reference);
          std::vector<Matcher> matchers;
          std::vector<std::size_t> engine_of;  // follower -> index in `engines`
          for (std::size_t e = 0; e < engines.size(); ++e) {
            if (!w.compared[e]) continue;  // the engine refused the grammar
            matchers.emplace_back(*w.compared[e]);
            engine_of.push_back(e);
          }
          std::vector<Matcher*> followers;
          for (Matcher& matcher : matchers) followers.push_back(&matcher);
          std::vector<std::vector<std::pair<std::string, std::pair<double, std::uint64_t>>>>
              program_counters(engines.size());
          const std::vector<std::int32_t> ids(text.tokens.begin(), text.tokens.end());
          const glrmask::ForcedRun run =
              teacher_force(leader, ids, forcing, followers, [&](const ForcedStep&) {
                for (std::size_t f = 0; f < followers.size(); ++f) {
                  const auto step_counters = followers[f]->last_mask_counters();
                  auto& sums = program_counters[engine_of[f]];
                  if (sums.empty())
                    for (const MaskCounter& counter : step_counters)
                      sums.push_back({std::string(counter.name), {0.0, 0}});
                  for (std::size_t c = 0; c < step_counters.size() && c < sums.size(); ++c) {
                    sums[c].second.first += step_counters[c].value;
                    if (step_counters[c].value != 0) ++sums[c].second.second;
                  }
                }
                return true;
              });
          std::vector<std::uint64_t> program_mismatches(engines.size(), 0);
          for (std::size_t f = 0; f < followers.size(); ++f) {
            const std::size_t e = engine_of[f];
            program_mismatches[e] = run.follower_mismatch_steps[f];
            tallies[e].steps.fetch_add(run.steps, std::memory_order_relaxed);
            tallies[e].mismatch_steps.fetch_add(program_mismatches[e], std::memory_order_relaxed);
          }
          for (const MaskMismatch& mismatch : run.mismatches)
            tallies[engine_of[mismatch.follower]].note(
                {index, mismatch.step, describe_mismatch(vocabulary, mismatch, text.text->name)});
          // The corpus texts parse, so the reference must allow their tokens; if it does not, the
          // program stops there and the reason is reported (a corpus or session problem).
          if (run.failure) {
            reference_rejections.fetch_add(1);
            const glrmask::ForcedRun::Failure& failure = *run.failure;
            std::lock_guard lock(rejection_mutex);
            rejection_notes.emplace_back(
                index,
                fmt::format("step {}, byte {}, token {} {}: {}", failure.step, failure.byte_offset,
                            failure.token,
                            printable_bytes(vocabulary.bytes(static_cast<TokenId>(failure.token))),
                            portable_message(failure.masked ? "the reference's mask lacks the token"
                                                            : failure.reason)));
          }
          const double program_seconds = seconds_since(program_started);
          std::string mismatch_summary;
          {
            std::lock_guard lock(program_rows_mutex);
            for (std::size_t e = 0; e < engines.size(); ++e) {
              if (!w.compared[e]) continue;
              tallies[e].add_counters(program_counters[e]);
              program_rows << csv_line({corpus.name, tokenizer_name, text.text->name, engines[e],
                                        std::to_string(run.steps),
                                        std::to_string(program_mismatches[e]),
                                        format_fixed(program_seconds, 1)});
              mismatch_summary +=
                  fmt::format(", {} {} mismatching", engines[e], program_mismatches[e]);
            }
            program_rows << std::flush;
          }
          progress(study,
                   fmt::format("{} / {}: {} done ({} of {}; {} steps{}, {} s)", corpus.name,
                               tokenizer_name, text.text->name, done.fetch_add(1) + 1, texts.size(),
                               run.steps, mismatch_summary, format_fixed(program_seconds, 1)));
        });
      });
      const double seconds = seconds_since(started);

      std::sort(rejection_notes.begin(), rejection_notes.end());
      for (const auto& [index, note] : rejection_notes)
        rejections.add_row({corpus.name, tokenizer_name, texts[index].text->name, note});
      std::uint64_t total_steps = 0, total_mismatches = 0;
      for (std::size_t e = 0; e < engines.size(); ++e) {
        const std::uint64_t steps = tallies[e].steps.load();
        total_steps = std::max(total_steps, steps);
        total_mismatches += tallies[e].mismatch_steps.load();
        table.add_row(
            {corpus.name, tokenizer_name, engines[e], reference, std::to_string(texts.size()),
             std::to_string(steps), std::to_string(tallies[e].mismatch_steps.load()),
             std::to_string(reference_rejections.load()), format_fixed(seconds, 1),
             format_fixed(build_seconds, 1), format_fixed(static_cast<double>(steps) / seconds, 1),
             tallies[e].first ? tallies[e].first->text
             : steps == 0     ? "refused by the engine (see stderr)"
                              : ""});
        for (const auto& [name, sum] : tallies[e].counters)
          counter_table.add_row({corpus.name, tokenizer_name, engines[e], name,
                                 format_fixed(sum.first, 0), std::to_string(sum.second)});
      }
      plot_data.add_row({fmt::format("{} {}", corpus.name, tokenizer_name),
                         std::to_string(total_steps), std::to_string(total_mismatches)});
      // What is checked so far, in case the run is stopped before the report.
      report.add_data_table("exactness", table);
      if (!rejections.rows().empty()) report.add_data_table("rejections", rejections);
      if (!counter_table.rows().empty()) report.add_data_table("counters", counter_table);
      progress(study,
               fmt::format("{} / {}: {} steps, {} mismatching, {} s", corpus.name, tokenizer_name,
                           total_steps, total_mismatches, format_fixed(seconds, 1)));
    }
  }

  report.add_text(fmt::format(
      "Each step: the {}'s mask{} and each engine's mask at the same point of the text (a "
      "matcher of the library per engine, driven by its teacher-forcing loop), compared bit for "
      "bit; then the real token is committed to every matcher. The last step of a program is EOS. "
      "`seconds` is the "
      "wall time of the (grammar, tokenizer) pair with programs spread over all cores, the "
      "reference and engine builds included; `engine_build_s` sums the wfa's compilation (built "
      "once, shared by the workers) and the builds of every worker thread's engines; "
      "`steps_per_s` = steps / seconds. `programs.csv` has a row per program and engine.",
      reference,
      reference == "oracle" ? " (the oracle tries every token on a copy of the session)" : ""));
  report.add_table("exactness", "Mismatching steps per engine", table);
  if (!rejections.rows().empty())
    report.add_table("rejections", "Programs the reference stopped (not engine errors)",
                     rejections);
  if (!counter_table.rows().empty())
    report.add_table("counters",
                     "Engine counters summed over the checked steps (and the steps where each was "
                     "nonzero)",
                     counter_table);
  report.add_data_table("plot", plot_data);
  report.add_plot("exactness", "teacher-forced steps checked and mismatching steps",
                  "set style data histogram\nset style histogram clustered gap 1\n"
                  "set style fill solid 0.8 border -1\nset logscale y\nset yrange [0.5:*]\n"
                  "set xtics rotate by -30\nset ylabel 'steps'\n"
                  "plot 'plot.csv' using 2:xtic(1) title 'steps checked', '' using ($3+0.5) "
                  "title 'mismatching steps (+0.5 on the log axis)'");
  report.finish();
  std::uint64_t mismatches = 0;
  for (const auto& row : table.rows()) mismatches += std::stoull(row[6]);
  return mismatches == 0 ? 0 : 1;
}

}  // namespace glrmask::experiments
