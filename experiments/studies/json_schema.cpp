// json_schema: MaskBench dev as a server sees it (docs/json_schema.md, "Time to first mask" and
// "MaskBench dev"). One process loads the tokenizer and its vocabulary tables once; then for each
// schema of maskbench-dev, taken as the JSON text a request would carry:
//  - time to first mask: schema text -> grammar -> lexer DFA and LALR(1) table -> the staged
//    engine (mask/lazy/staged_engine.h) -> the first exact mask of an empty session;
//  - the full wfa compile the staged engine then runs in the background (Terminal DWA, Parser
//    DWA, mask classes), and the process's resident memory after it;
//  - every valid instance teacher-forced through a session in schema order, and through the
//    any-order grammar where schema order refuses it; every invalid instance must be refused;
//  - get_mask over every teacher-forced step of every instance: the wfa engine once switched
//    (mask_view, as the other studies time it) and the lazy engine from cold; at every step the
//    mask must hold the next token exactly when the session accepts it;
//  - with --engines ...,oracle: both engines against the oracle at every teacher-forced step of
//    every valid instance.
// Writes schemas.csv (per schema), the summary and per-category tables, the refusals, and a CDF
// plot of the time to first mask.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>

#include "api/src/tokenizer_impl.h"
#include "experiments/studies/latency_histogram.h"
#include "experiments/studies/run_header.h"
#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "glrmask/glrmask.hpp"
#include "harness/engine_constraint.h"
#include "harness/teacher_forcing.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/settings.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/lazy/lazy_walk_engine.h"
#include "mask/lazy/staged_engine.h"
#include "mask/lazy/vocabulary_tables.h"
#include "mask/oracle/oracle_engine.h"

namespace glrmask::experiments {
namespace {

using Clock = std::chrono::steady_clock;
using json_schema::JsonValue;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// CPU time of the calling thread, in ms: on a machine shared with other work the wall time of a
// step includes the time other processes held the cores.
double thread_cpu_ms() {
  return thread_cpu_seconds() * 1e3;
}

// The process's resident set now (VmRSS), in MiB.
double resident_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with("VmRSS:")) return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

struct Row {
  std::string id, category, status = "compiled", reason;
  double grammar_ms = 0, first_mask_ms = 0, first_mask_cpu_ms = 0, first_walk_ms = 0,
         full_compile_ms = 0;
  double rss_mib = 0, rss_growth_mib = 0;
  std::size_t valid = 0, valid_accepted = 0, valid_any_order = 0, invalid = 0, invalid_rejected = 0;
  std::size_t steps = 0, disagreements = 0, oracle_steps = 0, oracle_mismatches = 0;
  std::size_t lexer_states = 0, forks = 0, lazy_forks = 0;
  std::vector<double> wfa_us, lazy_us;
  std::vector<double> lazy_warm_us;  // the lazy steps that walked no new fork
  std::vector<double> lazy_cpu_us;   // the lazy steps in the thread's CPU time
  bool wfa_built = false;
};

// A constraint of the library over `grammar` whose matchers run `engine` (kept by the caller).
Constraint over(const Tokenizer& tokenizer, const std::shared_ptr<const glr::CompiledGrammar>& g,
                mask::MaskEngine& engine) {
  return constraint_over_engine(tokenizer, g, engine);
}

// Teacher-forces `ids` through a matcher of `constraint` with the library's loop: times each
// mask (its view) and counts a disagreement where the mask and the matcher judge the next token
// (or EOS at the end) differently; with `oracle`, counts the steps whose mask differs from the
// oracle's. Returns the steps taken.
std::size_t force(const Constraint& constraint, const std::vector<TokenId>& ids,
                  std::vector<double>& micros, std::size_t& disagreements, const Constraint* oracle,
                  std::size_t* oracle_mismatches, std::vector<double>* warm_micros = nullptr,
                  std::vector<double>* cpu_micros = nullptr) {
  Matcher matcher(constraint);
  std::optional<Matcher> reference;
  std::vector<Matcher*> followers;
  if (oracle) followers.push_back(&reference.emplace(*oracle));
  TeacherForcingOptions forcing;
  forcing.thread_cpu_time = cpu_micros != nullptr;
  const std::vector<std::int32_t> tokens(ids.begin(), ids.end());
  const glrmask::ForcedRun run =
      teacher_force(matcher, tokens, forcing, followers, [&](const ForcedStep& step) {
        micros.push_back(std::chrono::duration<double, std::micro>(step.mask_time).count());
        if (cpu_micros)
          cpu_micros->push_back(
              std::chrono::duration<double, std::micro>(step.mask_cpu_time).count());
        if (warm_micros) {
          bool built = false;
          for (const MaskCounter& counter : step.matcher->last_mask_counters())
            built = built || (counter.name == "forks_built" && counter.value > 0);
          if (!built) warm_micros->push_back(micros.back());
        }
        return true;
      });
  if (oracle) *oracle_mismatches += run.follower_mismatch_steps[0];
  if (run.failure) {
    // Allowed but refused: a disagreement. Masked: one unless the matcher refuses it too (an
    // invalid instance ends there).
    if (!run.failure->masked || matcher.accept_token(run.failure->token)) ++disagreements;
  }
  return run.steps;
}

// Whether the whole text is accepted (every token viable, EOS allowed at the end).
bool accepts(const Constraint& constraint, const std::vector<TokenId>& ids) {
  Matcher matcher(constraint);
  for (const TokenId id : ids)
    if (!matcher.accept_token(static_cast<std::int32_t>(id))) return false;
  return matcher.is_accepting();
}

std::string ms(double value) {
  return format_fixed(value, value < 10 ? 2 : 1);
}

}  // namespace

int run_json_schema(const StudyOptions& options) {
  const std::string tokenizer = options.tokenizers.empty() ? "llama3" : options.tokenizers[0];
  const bool with_oracle =
      std::find(options.engines.begin(), options.engines.end(), "oracle") != options.engines.end();
  // Without "wfa" among the engines (e.g. --engines lazy,oracle) the staged engine never builds
  // the wfa engine: the lazy engine alone, from the first mask to the last.
  const bool with_wfa =
      options.engines.empty() ||
      std::find(options.engines.begin(), options.engines.end(), "wfa") != options.engines.end();
  const Tokenizer handle = Tokenizer::load(tokenizer);
  const Vocabulary& vocabulary = handle.impl().vocabulary;
  const Encoder& encoder = *handle.impl().encoder;
  const auto tables_started = Clock::now();
  const mask::VocabularyTables& tables = handle.impl().vocabulary_tables();
  const double tables_ms = ms_since(tables_started);
  // The oracle judges acceptance (it builds nothing ahead) and, with --engines ...,oracle, masks.
  mask::OracleEngine oracle(vocabulary);

  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(data_dir() / "jsonschema" / "maskbench-dev"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (options.small()) {
    std::vector<std::filesystem::path> every_tenth;
    for (std::size_t i = 0; i < files.size(); i += 10) every_tenth.push_back(files[i]);
    files = every_tenth;
  }
  if (options.max_programs && files.size() > options.max_programs)
    files.resize(options.max_programs);

  json_schema::SchemaOptions schema_order;
  json_schema::SchemaOptions any_order;
  any_order.property_order = json_schema::PropertyOrder::kAny;
  std::vector<std::uint32_t> scratch(
      dense_word_count(static_cast<std::uint32_t>(vocabulary.size())));
  std::vector<Row> rows;
  for (const auto& file : files) {
    Row row;
    row.id = file.stem().string();
    row.category = row.id.substr(0, row.id.find("---"));
    const JsonValue document = json_schema::parse_json(read_text_file(file), file.string());
    const std::string schema_text = json_schema::to_json_text(*document.find("schema"));
    const std::vector<JsonValue>& valid = document.find("valid")->items;
    const std::vector<JsonValue>& invalid = document.find("invalid")->items;
    row.valid = valid.size();
    row.invalid = invalid.size();
    const double rss_before = resident_mib();

    // Time to first mask: from the schema's text to the first mask of an empty session.
    std::shared_ptr<const glr::CompiledGrammar> grammar;
    std::unique_ptr<mask::StagedEngine> engine;
    const auto started = Clock::now();
    const double cpu_started = thread_cpu_ms();
    try {
      GrammarModel model = json_schema::compile_json_schema_text(schema_text, row.id, schema_order);
      grammar = glr::CompiledGrammar::compile(std::move(model));
      row.grammar_ms = ms_since(started);
      mask::StagedOptions staged;
      staged.build_wfa = with_wfa;
      engine = std::make_unique<mask::StagedEngine>(grammar, tables, staged);
      glr::Session session(grammar, &vocabulary);
      const auto walk_started = Clock::now();
      engine->mask_view(session, scratch);
      row.first_walk_ms = ms_since(walk_started);
      row.first_mask_ms = ms_since(started);
      row.first_mask_cpu_ms = thread_cpu_ms() - cpu_started;
    } catch (const Error& e) {
      row.status = "refused";
      row.reason = e.what();
      rows.push_back(std::move(row));
      progress("json_schema",
               fmt::format("{}: refused: {}", rows.back().id, rows.back().reason.substr(0, 160)));
      continue;
    }
    // The full compile the staged engine runs after the first mask.
    if (with_wfa) {
      try {
        engine->wait_for_wfa();
        row.wfa_built = true;
        row.full_compile_ms = row.grammar_ms + engine->wfa_build_seconds() * 1000;
        row.forks = engine->compiled()->terminal_dwa().stats().forks;
      } catch (const Error& e) {
        row.status = "no wfa";
        row.reason = e.what();
      }
    }
    row.lexer_states = grammar->dfa().num_states();
    row.rss_mib = resident_mib();
    row.rss_growth_mib = row.rss_mib - rss_before;

    // An error past the compile (a session's limit, docs/limits.md) ends this schema's row, not the
    // study: the row keeps what was measured before it and names the error.
    try {
      // Acceptance: schema order, then any order for what schema order refuses.
      const Constraint verdicts = over(handle, grammar, oracle);
      std::optional<Constraint> unordered;
      std::vector<std::vector<TokenId>> texts;
      for (const JsonValue& instance : valid) {
        texts.push_back(encoder.encode(json_schema::to_json_text(instance)));
        if (accepts(verdicts, texts.back())) {
          ++row.valid_accepted;
          continue;
        }
        try {
          if (!unordered)
            unordered = over(handle,
                             glr::CompiledGrammar::compile(json_schema::compile_json_schema_text(
                                 schema_text, row.id, any_order)),
                             oracle);
          if (accepts(*unordered, texts.back())) ++row.valid_any_order;
        } catch (const Error& e) {
          if (row.reason.empty()) row.reason = fmt::format("any order: {}", e.what());
        }
      }
      for (const JsonValue& instance : invalid) {
        texts.push_back(encoder.encode(json_schema::to_json_text(instance)));
        if (!accepts(verdicts, texts.back())) ++row.invalid_rejected;
      }

      // get_mask: the switched engine, then the lazy one from cold; the oracle on valid instances.
      mask::LazyWalkEngine lazy(grammar, vocabulary, tables.trie, &tables.plain);
      const Constraint switched = over(handle, grammar, *engine);
      const Constraint lazy_constraint = over(handle, grammar, lazy);
      for (std::size_t i = 0; i < texts.size(); ++i) {
        const bool compare = with_oracle && i < valid.size();
        std::size_t* mismatches = compare ? &row.oracle_mismatches : nullptr;
        std::size_t wfa_steps = 0;
        if (row.wfa_built) {
          wfa_steps = force(switched, texts[i], row.wfa_us, row.disagreements,
                            compare ? &verdicts : nullptr, mismatches);
          row.steps += wfa_steps;
        }
        const std::size_t lazy_steps =
            force(lazy_constraint, texts[i], row.lazy_us, row.disagreements,
                  compare ? &verdicts : nullptr, mismatches, &row.lazy_warm_us, &row.lazy_cpu_us);
        if (!row.wfa_built) row.steps += lazy_steps;
        if (compare) row.oracle_steps += wfa_steps + lazy_steps;
      }
      row.lazy_forks = lazy.dwa().stats().forks_built;
    } catch (const Error& e) {
      row.status = "error";
      row.reason = e.what();
    }
    progress("json_schema",
             fmt::format("{}: first mask {} ms, full {} ms, valid {}/{}(+{}), invalid {}/{}, "
                         "disagreements {}, oracle mismatches {}/{}",
                         row.id, ms(row.first_mask_ms), ms(row.full_compile_ms), row.valid_accepted,
                         row.valid, row.valid_any_order, row.invalid_rejected, row.invalid,
                         row.disagreements, row.oracle_mismatches, row.oracle_steps));
    rows.push_back(std::move(row));
  }

  // ---- report ----
  StudyReport report(options.out_dir, "JSON Schema: MaskBench dev as a server sees it",
                     describe_run("json_schema", options.size_name(), {tokenizer}));
  ResultTable per_schema({"schema",
                          "category",
                          "status",
                          "first_mask_ms",
                          "first_mask_cpu_ms",
                          "grammar_ms",
                          "first_walk_ms",
                          "full_compile_ms",
                          "rss_mib",
                          "rss_growth_mib",
                          "lexer_states",
                          "forks",
                          "lazy_forks",
                          "valid",
                          "valid_accepted",
                          "valid_any_order",
                          "invalid",
                          "invalid_rejected",
                          "steps",
                          "wfa_mean_us",
                          "wfa_p99_us",
                          "lazy_mean_us",
                          "lazy_p99_us",
                          "disagreements",
                          "oracle_steps",
                          "oracle_mismatches",
                          "reason"});
  auto mean = [](const std::vector<double>& v) {
    double sum = 0;
    for (const double x : v) sum += x;
    return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
  };
  for (const Row& r : rows) {
    per_schema.add_row({r.id,
                        r.category,
                        r.status,
                        ms(r.first_mask_ms),
                        ms(r.first_mask_cpu_ms),
                        ms(r.grammar_ms),
                        ms(r.first_walk_ms),
                        ms(r.full_compile_ms),
                        format_fixed(r.rss_mib, 1),
                        format_fixed(r.rss_growth_mib, 1),
                        std::to_string(r.lexer_states),
                        std::to_string(r.forks),
                        std::to_string(r.lazy_forks),
                        std::to_string(r.valid),
                        std::to_string(r.valid_accepted),
                        std::to_string(r.valid_any_order),
                        std::to_string(r.invalid),
                        std::to_string(r.invalid_rejected),
                        std::to_string(r.steps),
                        format_fixed(mean(r.wfa_us), 2),
                        format_fixed(r.wfa_us.empty() ? 0 : percentile(r.wfa_us, 99), 2),
                        format_fixed(mean(r.lazy_us), 2),
                        format_fixed(r.lazy_us.empty() ? 0 : percentile(r.lazy_us, 99), 2),
                        std::to_string(r.disagreements),
                        std::to_string(r.oracle_steps),
                        std::to_string(r.oracle_mismatches),
                        r.reason.substr(0, 400)});
  }
  report.add_data_table("schemas", per_schema);

  // Summary over all schemas and per category.
  struct Totals {
    std::size_t schemas = 0, compiled = 0, valid = 0, valid_accepted = 0, valid_any_order = 0,
                invalid = 0, invalid_rejected = 0, invalid_of_compiled = 0, steps = 0,
                disagreements = 0, oracle_steps = 0, oracle_mismatches = 0, with_oracle = 0;
    std::vector<double> first_mask, first_mask_cpu, full_compile, wfa_us, lazy_us, lazy_warm_us,
        lazy_cpu_us, rss_growth;
  };
  std::map<std::string, Totals> by_category;
  Totals total;
  for (const Row& r : rows) {
    for (Totals* t : {&by_category[r.category], &total}) {
      ++t->schemas;
      t->valid += r.valid;
      t->invalid += r.invalid;
      if (r.status == "refused") continue;
      ++t->compiled;
      t->valid_accepted += r.valid_accepted;
      t->valid_any_order += r.valid_any_order;
      t->invalid_rejected += r.invalid_rejected;
      t->invalid_of_compiled += r.invalid;
      t->steps += r.steps;
      t->disagreements += r.disagreements;
      t->oracle_steps += r.oracle_steps;
      t->oracle_mismatches += r.oracle_mismatches;
      t->with_oracle += r.oracle_steps > 0;
      t->first_mask.push_back(r.first_mask_ms);
      t->first_mask_cpu.push_back(r.first_mask_cpu_ms);
      if (r.wfa_built) t->full_compile.push_back(r.full_compile_ms);
      t->rss_growth.push_back(r.rss_growth_mib);
      t->wfa_us.insert(t->wfa_us.end(), r.wfa_us.begin(), r.wfa_us.end());
      t->lazy_us.insert(t->lazy_us.end(), r.lazy_us.begin(), r.lazy_us.end());
      t->lazy_warm_us.insert(t->lazy_warm_us.end(), r.lazy_warm_us.begin(), r.lazy_warm_us.end());
      t->lazy_cpu_us.insert(t->lazy_cpu_us.end(), r.lazy_cpu_us.begin(), r.lazy_cpu_us.end());
    }
  }
  auto pct = [](const std::vector<double>& v, double p) {
    return v.empty() ? 0.0 : percentile(v, p);
  };
  auto max_of = [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
  };
  ResultTable summary({"category",
                       "schemas",
                       "compiled",
                       "valid accepted (schema order)",
                       "+ any order",
                       "invalid rejected (compiled)",
                       "first mask ms p50",
                       "p99",
                       "max",
                       "first mask CPU ms p50",
                       "p99",
                       "max",
                       "full compile ms p50",
                       "p99",
                       "max",
                       "wfa get_mask µs mean",
                       "p99",
                       "lazy µs mean",
                       "p50",
                       "p99",
                       "lazy µs, no fork walked: p50",
                       "p99",
                       "lazy CPU µs p50",
                       "p99",
                       "steps",
                       "disagreements"});
  auto summary_row = [&](const std::string& name, const Totals& t) {
    summary.add_row({name,
                     std::to_string(t.schemas),
                     std::to_string(t.compiled),
                     fmt::format("{}/{}", t.valid_accepted, t.valid),
                     std::to_string(t.valid_any_order),
                     fmt::format("{}/{}", t.invalid_rejected, t.invalid_of_compiled),
                     ms(pct(t.first_mask, 50)),
                     ms(pct(t.first_mask, 99)),
                     ms(max_of(t.first_mask)),
                     ms(pct(t.first_mask_cpu, 50)),
                     ms(pct(t.first_mask_cpu, 99)),
                     ms(max_of(t.first_mask_cpu)),
                     ms(pct(t.full_compile, 50)),
                     ms(pct(t.full_compile, 99)),
                     ms(max_of(t.full_compile)),
                     format_fixed(mean(t.wfa_us), 2),
                     format_fixed(pct(t.wfa_us, 99), 2),
                     format_fixed(mean(t.lazy_us), 1),
                     format_fixed(pct(t.lazy_us, 50), 1),
                     format_fixed(pct(t.lazy_us, 99), 1),
                     format_fixed(pct(t.lazy_warm_us, 50), 1),
                     format_fixed(pct(t.lazy_warm_us, 99), 1),
                     format_fixed(pct(t.lazy_cpu_us, 50), 1),
                     format_fixed(pct(t.lazy_cpu_us, 99), 1),
                     std::to_string(t.steps),
                     std::to_string(t.disagreements)});
  };
  for (const auto& [name, t] : by_category) summary_row(name, t);
  summary_row("**total**", total);
  report.add_text(fmt::format(
      "Tokenizer {} ({} ids). Vocabulary tables (trie and plain tokens), built once for all "
      "schemas: {} ms. Schemas in schema order; valid instances that schema order refuses are "
      "tried with the any-order grammar. Time to first mask: schema text to the first mask of "
      "an empty session, the tokenizer and its tables loaded. Full compile: grammar plus the wfa "
      "build the staged engine runs after the first mask. get_mask: every teacher-forced step of "
      "every instance (valid and invalid), wfa after the switch (mask_view) and lazy from "
      "cold.\n\n",
      tokenizer, vocabulary.size(), ms(tables_ms)));
  report.add_table("summary", "Summary", summary);
  if (with_oracle)
    report.add_text(fmt::format(
        "\nAgainst the oracle: {} teacher-forced steps of the valid instances of {} schemas (wfa "
        "and lazy each), {} masks differ.\n",
        total.oracle_steps, total.with_oracle, total.oracle_mismatches));
  ResultTable refusals({"schema", "reason"});
  for (const Row& r : rows)
    if (r.status != "compiled" || r.valid_accepted + r.valid_any_order < r.valid ||
        r.invalid_rejected < r.invalid || r.disagreements)
      refusals.add_row({r.id, r.status + ": " + r.reason.substr(0, 600)});
  report.add_table("refusals", "Schemas refused, or with an instance not decided as labelled",
                   refusals);
  // CDF of the time to first mask.
  std::vector<double> sorted = total.first_mask;
  std::vector<double> sorted_cpu = total.first_mask_cpu;
  std::sort(sorted.begin(), sorted.end());
  std::sort(sorted_cpu.begin(), sorted_cpu.end());
  std::string cdf = "first_mask_ms,first_mask_cpu_ms,fraction\n";
  for (std::size_t i = 0; i < sorted.size(); ++i)
    cdf += fmt::format("{:.4f},{:.4f},{:.5f}\n", sorted[i], sorted_cpu[i],
                       static_cast<double>(i + 1) / static_cast<double>(sorted.size()));
  report.write_file("first_mask_cdf.csv", cdf);
  report.add_plot("first_mask_cdf", "Time to first mask over MaskBench dev",
                  "set datafile separator ','\n"
                  "set logscale x\n"
                  "set xlabel 'time to first mask (ms), tokenizer loaded'\n"
                  "set ylabel 'fraction of compiled schemas'\n"
                  "set key bottom right\n"
                  "set grid\n"
                  "plot 'first_mask_cdf.csv' using 1:3 skip 1 with steps lw 2 title "
                  "'wall time', 'first_mask_cdf.csv' using 2:3 skip 1 with steps lw 2 title "
                  "'CPU time of the thread'\n");
  report.finish();
  fmt::print("json_schema: {} schemas, {} compiled; first mask p50 {} ms, p99 {} ms, max {} ms\n",
             total.schemas, total.compiled, ms(pct(total.first_mask, 50)),
             ms(pct(total.first_mask, 99)), ms(max_of(total.first_mask)));
  return 0;
}

}  // namespace glrmask::experiments
