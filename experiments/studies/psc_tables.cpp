// psc_tables: Tables 1-3 of PSC (paper 001) for every registered engine but the oracle: mean
// mask overhead per teacher-forced token (Table 1), sample pass rate under PSC's definition
// (Table 2, experiments/support/sample_pass.h) and the wfa preprocessing cost — compile CPU time,
// peak memory, artifact size raw and zstd-compressed (Table 3) — for SynCode's Java, Go and SQL
// grammars and MaskBench's JSON Schemas (one grammar per schema), under Llama-3, Qwen3 and Gemma-3.
//
// Every grammar (every schema) is compiled for the wfa engine in a fresh child process that
// writes the artifact of `glrmask compile` (mask/artifact/mask_artifact.h); the parent measures the
// artifact, then loads it for its own wfa engine, so Table 1 and 2 run on the artifact Table 3
// measured.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

#include "api/src/constraint_source.h"
#include "experiments/studies/child_process.h"
#include "experiments/studies/latency_summary.h"
#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "experiments/studies/teacher_forcing.h"
#include "experiments/support/sample_pass.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/settings.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"
#include "lib/tokenizer/tokenizer_spec.h"
#include "mask/artifact/mask_artifact.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/oracle/oracle_engine.h"

namespace glrmask::experiments {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStudy = "psc_tables";
// The grammar column of the MaskBench schemas (the corpus "json" is SynCode's generic grammar).
const std::string kSchemas = "jsonschema";
// The reference row of Table 2: the grammar's own verdict, what an exact engine scores.
const std::string kGrammarRow = "grammar (exact)";

struct Sample {
  std::string name;
  std::string text;
  SampleKind kind = SampleKind::kPositive;
};

// One grammar the engines are built for, with the samples forced under it. `source_kind` and
// `source` rebuild the grammar in the child: "corpus" + corpus name, "file" + a Lark file, or
// "schema" + a MaskBench file.
struct GrammarUnit {
  std::string column;  // java, go, sql, jsonschema, or the grammar file's stem
  std::string name;    // the corpus name or schema id
  std::string source_kind;
  std::string source;
  std::vector<Sample> samples;
};

json_schema::JsonValue read_maskbench_file(const fs::path& file) {
  json_schema::JsonValue document = json_schema::parse_json(read_text_file(file), file.string());
  if (!document.find("schema") || !document.find("valid") || !document.find("invalid"))
    throw Error(
        fmt::format("{}: not a MaskBench file (needs schema, valid, invalid)", file.string()),
        ErrorCode::kInvalidArgument);
  return document;
}

// What the unit compiles, as the library's constraint source, so that the artifact written is the
// one `glrmask compile -o` writes (its source section included).
ConstraintSource study_source(const std::string& kind, const std::string& source,
                              const StudyOptions& options) {
  ConstraintSource result;
  if (kind == "schema") {
    const json_schema::JsonValue document = read_maskbench_file(source);
    result.format = "json_schema";
    result.name = fs::path(source).stem().string();
    result.text = json_schema::to_json_text(*document.find("schema"));
    return result;
  }
  const Corpus corpus =
      kind == "corpus" ? load_named_corpus(source, 1) : corpus_from_files(source, {});
  const glr::ParseOptions parse = corpus_parse_options(corpus, options);
  result.format = corpus.format;
  result.name = corpus.grammar_path.string();
  result.text = read_text_file(corpus.grammar_path);
  result.grammar = grammar_options(parse);
  return result;
}

// MaskBench files in name order; `count` of them spread evenly over the list (0: all), so a
// small run sees several categories rather than the first one only.
std::vector<fs::path> maskbench_files(std::size_t count) {
  const fs::path folder = data_dir() / "jsonschema" / "maskbench-dev";
  if (!fs::is_directory(folder))
    throw Error(
        fmt::format("{}: the MaskBench folder is missing (set GLRMASK_DATA)", folder.string()),
        ErrorCode::kIo);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (count == 0 || count >= files.size()) return files;
  std::vector<fs::path> picked;
  for (std::size_t i = 0; i < count; ++i) picked.push_back(files[i * files.size() / count]);
  return picked;
}

std::vector<GrammarUnit> load_units(const StudyOptions& options, std::size_t programs,
                                    std::size_t schemas) {
  std::vector<GrammarUnit> units;
  if (!options.grammar_file.empty()) {
    // A user's grammar: inputs whose file name holds ".invalid." are negative samples.
    const Corpus corpus = corpus_from_files(options.grammar_file, options.input_files);
    GrammarUnit unit{corpus.name, corpus.name, "file", options.grammar_file.string(), {}};
    for (const CorpusText& text : corpus.texts)
      unit.samples.push_back({text.name, text.text,
                              text.name.find(".invalid.") != std::string::npos
                                  ? SampleKind::kNegative
                                  : SampleKind::kPositive});
    units.push_back(std::move(unit));
    return units;
  }
  const std::vector<std::string> grammars =
      options.grammars.empty() ? std::vector<std::string>{"java", "go", "sql", kSchemas}
                               : options.grammars;
  for (const std::string& grammar : grammars) {
    if (grammar != kSchemas) {
      const Corpus corpus = load_named_corpus(grammar, programs);
      GrammarUnit unit{grammar, grammar, "corpus", grammar, {}};
      for (const CorpusText& text : corpus.texts)
        unit.samples.push_back({text.name, text.text, SampleKind::kPositive});
      units.push_back(std::move(unit));
      continue;
    }
    for (const fs::path& file : maskbench_files(schemas)) {
      const json_schema::JsonValue document = read_maskbench_file(file);
      GrammarUnit unit{kSchemas, file.stem().string(), "schema", file.string(), {}};
      for (const auto& [list, kind] : {std::pair{"valid", SampleKind::kPositive},
                                       std::pair{"invalid", SampleKind::kNegative}}) {
        const auto& instances = document.find(list)->items;
        for (std::size_t i = 0; i < instances.size(); ++i)
          unit.samples.push_back({fmt::format("{}#{}{}", unit.name, list, i),
                                  json_schema::to_json_text(instances[i]), kind});
      }
      units.push_back(std::move(unit));
    }
  }
  return units;
}

bool zstd_available() {
  static const bool available = std::system("command -v zstd >/dev/null 2>&1") == 0;
  return available;
}

// zstd's default level (3), the level of the `zstandard` Python package's default compressor.
std::optional<std::uintmax_t> zstd_size(const fs::path& file) {
  if (!zstd_available()) return std::nullopt;
  const fs::path compressed = file.string() + ".zst";
  const std::string command =
      fmt::format("zstd -q -f -o '{}' '{}' >/dev/null 2>&1", compressed.string(), file.string());
  if (std::system(command.c_str()) != 0) return std::nullopt;
  const std::uintmax_t size = fs::file_size(compressed);
  fs::remove(compressed);
  return size;
}

// One cell of Tables 1 and 2: an engine on a grammar column under one tokenizer.
struct EngineCell {
  PassRateTally tally;
  std::vector<double> mask_us;
  std::size_t units = 0;
  std::size_t refused_units = 0;
  std::string refusal;  // the first reason
};

// One cell of Table 3: the wfa compile of a grammar column under one tokenizer.
struct CompileCell {
  std::vector<double> cpu_s, wall_s, peak_mib, inputs_mib, artifact_mib, zstd_mib;
  std::size_t units = 0;
  std::string refusal;  // the first reason
};

using CellKey = std::tuple<std::string, std::string, std::string>;  // column, tokenizer, engine

std::string mean_cell(const std::vector<double>& values, int decimals) {
  return values.empty() ? "" : format_fixed(mean(values), decimals);
}

std::string percent_cell(std::size_t part, std::size_t whole) {
  if (whole == 0) return "";
  return format_fixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), 1);
}

EngineRun engine_run_of(const ForcedRun& run) {
  if (!run.failure) return {EngineRun::End::kAllowedAll, run.steps.size()};
  return {run.failure_masked ? EngineRun::End::kMasked : EngineRun::End::kUnsound,
          run.failure_step};
}

std::string outcome_text(const EngineRun& run, std::size_t tokens) {
  switch (run.end) {
    case EngineRun::End::kRefusedGrammar:
      return "refused the grammar";
    case EngineRun::End::kAllowedAll:
      return "allowed every token and EOS";
    case EngineRun::End::kMasked:
      return run.step == tokens ? "masked EOS" : fmt::format("masked token {}", run.step);
    case EngineRun::End::kUnsound:
      return fmt::format("allowed token {}, which the session refused", run.step);
  }
  return "";
}

std::string verdict_text(const GrammarVerdict& verdict, std::size_t tokens) {
  if (!verdict) return "accepts";
  return *verdict == tokens ? "rejects EOS" : fmt::format("rejects token {}", *verdict);
}

}  // namespace

// argv: studies --child psc_tables KIND SOURCE POLICY TOKENIZER ARTIFACT
// Prints one tab-separated line: "ok", grammar CPU s, grammar wall s, wfa compile CPU s, wfa
// compile wall s, peak MiB before compiling, peak MiB in all, artifact bytes; or "refused",
// the stage, the message.
int run_psc_tables_child(int argc, char** argv) {
  if (argc != 8) {
    fmt::print("refused\targuments\texpected 5 arguments after --child psc_tables\n");
    return 2;
  }
  const std::string kind = argv[3], source = argv[4], tokenizer = argv[6];
  const fs::path artifact = argv[7];
  StudyOptions options;
  options.policy = argv[5] == std::string("-") ? "" : argv[5];
  std::string stage = "loading the tokenizer";
  try {
    // The vocabulary only: a compile needs no encoder (what `glrmask compile` loads).
    const Vocabulary vocabulary(TokenizerSpec::load(resolve_tokenizer(tokenizer)));
    const double inputs_mib = peak_memory_mib();
    stage = kind == "schema" ? "compiling the schema" : "compiling the grammar";
    double cpu = process_cpu_seconds();
    auto wall = std::chrono::steady_clock::now();
    const ConstraintSource constraint_source = study_source(kind, source, options);
    const auto grammar = constraint_source.compile();
    const double grammar_cpu = process_cpu_seconds() - cpu, grammar_wall = seconds_since(wall);
    stage = "compiling for wfa";
    cpu = process_cpu_seconds();
    wall = std::chrono::steady_clock::now();
    const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
    const double mask_cpu = process_cpu_seconds() - cpu, mask_wall = seconds_since(wall);
    stage = "writing the artifact";
    const std::size_t bytes = mask::write_artifact(
        *grammar, compiled.get(), vocabulary,
        StoredConstraint{constraint_source, Engine::kWfa}.serialize(), artifact);
    fmt::print("ok\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.1f}\t{:.1f}\t{}\n", grammar_cpu,
               grammar_wall, mask_cpu, mask_wall, inputs_mib, peak_memory_mib(), bytes);
    return 0;
  } catch (const std::exception& e) {
    std::string message = portable_message(e.what());
    std::replace(message.begin(), message.end(), '\t', ' ');
    fmt::print("refused\t{}\t{}\n", stage, message);
    return 1;
  }
}

int run_psc_tables(const StudyOptions& options) {
  const std::string study(kStudy);
  if (options.max_steps != 0)
    throw Error("psc_tables forces whole samples (EOS included): --max-steps does not apply",
                ErrorCode::kInvalidArgument);
  const std::size_t programs =
      options.max_programs != 0 ? options.max_programs : (options.small() ? 2 : 0);
  const std::size_t schemas =
      options.max_programs != 0 ? options.max_programs : (options.small() ? 10 : 0);
  const std::vector<GrammarUnit> units = load_units(options, programs, schemas);
  const std::vector<std::string> tokenizers =
      tokenizer_names(options, {"llama3", "qwen3", "gemma3"});
  const std::vector<std::string> engines = engine_names(options, {"oracle"});
  std::vector<std::string> columns;  // grammar columns in order
  for (const GrammarUnit& unit : units)
    if (std::find(columns.begin(), columns.end(), unit.column) == columns.end())
      columns.push_back(unit.column);
  StudyReport report(options.out_dir, "PSC Tables 1-3: mask overhead, pass rate, preprocessing",
                     describe_run(study, options.size_name(), tokenizers));
  const fs::path scratch =
      fs::temp_directory_path() / fmt::format("glrmask_psc_tables_{}", ::getpid());
  fs::create_directories(scratch);

  std::map<CellKey, EngineCell> engine_cells;
  std::map<std::pair<std::string, std::string>, CompileCell> compile_cells;
  ResultTable unit_table({"grammar", "unit", "tokenizer", "status", "grammar_cpu_s",
                          "wfa_compile_cpu_s", "cpu_s", "wall_s", "inputs_peak_mib", "peak_mib",
                          "artifact_bytes", "zstd_bytes", "note"});
  ResultTable failures({"grammar", "tokenizer", "engine", "sample", "kind", "engine_outcome",
                        "grammar_verdict", "why"});
  std::vector<std::string> tokenizer_labels;
  // The rows of Tables 1 and 2: the engines, then the grammar's own verdict (Table 2 only).
  std::vector<std::string> rows = engines;
  rows.push_back(kGrammarRow);

  for (const std::string& tokenizer_arg : tokenizers) {
    const auto tokenizer = load_tokenizer(tokenizer_arg);
    const std::string& tok = tokenizer->name;
    tokenizer_labels.push_back(tok);
    for (std::size_t u = 0; u < units.size(); ++u) {
      const GrammarUnit& unit = units[u];
      progress(study,
               fmt::format("{} / {}: {} ({} of {}, {} samples): wfa compile in a child", tok,
                           unit.column, unit.name, u + 1, units.size(), unit.samples.size()));
      // Table 3: the wfa compile in a fresh process, its artifact measured here.
      const fs::path artifact = scratch / "unit.glrmask";
      fs::remove(artifact);
      const ChildResult child = run_self_as_child(
          {std::string(kStudy), unit.source_kind, unit.source,
           options.policy.empty() ? "-" : options.policy, tokenizer_arg, artifact.string()});
      const std::vector<std::string> f = split_tabs(last_line(child.output));
      CompileCell& compile = compile_cells[{unit.column, tok}];
      ++compile.units;
      const bool compiled = f.size() == 8 && f[0] == "ok";
      if (compiled) {
        const double cpu = std::stod(f[1]) + std::stod(f[3]);
        const double wall = std::stod(f[2]) + std::stod(f[4]);
        const double bytes = std::stod(f[7]);
        const auto packed = zstd_size(artifact);
        compile.cpu_s.push_back(cpu);
        compile.wall_s.push_back(wall);
        compile.inputs_mib.push_back(std::stod(f[5]));
        compile.peak_mib.push_back(std::stod(f[6]));
        compile.artifact_mib.push_back(bytes / (1024.0 * 1024.0));
        if (packed) compile.zstd_mib.push_back(static_cast<double>(*packed) / (1024.0 * 1024.0));
        unit_table.add_row({unit.column, unit.name, tok, "ok", f[1], f[3], format_fixed(cpu, 3),
                            format_fixed(wall, 3), f[5], f[6], f[7],
                            packed ? std::to_string(*packed) : "", ""});
      } else {
        const std::string note =
            f.size() >= 3 && f[0] == "refused"
                ? fmt::format("refused while {}: {}", f[1], f[2])
                : fmt::format("child exited with {}: {}", child.exit_code, last_line(child.output));
        if (compile.refusal.empty()) compile.refusal = note;
        unit_table.add_row(
            {unit.column, unit.name, tok, "refused", "", "", "", "", "", "", "", "", note});
      }

      // Tables 1 and 2: teacher forcing of every sample under every engine.
      std::shared_ptr<const glr::CompiledGrammar> grammar;
      std::string grammar_error;
      try {
        grammar = study_source(unit.source_kind, unit.source, options).compile();
      } catch (const Error& e) {
        grammar_error = portable_message(e.what());
      }
      if (!grammar) {
        progress(study, fmt::format("{}: no grammar ({}); its samples fail for every engine",
                                    unit.name, grammar_error));
        for (const std::string& row : rows) {
          EngineCell& cell = engine_cells[{unit.column, tok, row}];
          ++cell.units;
          for (const Sample& sample : unit.samples) cell.tally.add_without_grammar(sample.kind);
        }
        continue;
      }
      std::vector<std::vector<TokenId>> tokens;
      std::vector<GrammarVerdict> verdicts;
      // The grammar's verdicts come from a matcher of the library (over the oracle, which builds
      // nothing ahead).
      const Constraint grammar_constraint = study_constraint(
          *tokenizer, grammar, std::make_unique<mask::OracleEngine>(tokenizer->vocabulary));
      for (const Sample& sample : unit.samples) {
        try {
          tokens.push_back(tokenizer->encoder.encode(sample.text));
        } catch (const Error& e) {
          throw Error(fmt::format("{} ({}): {}", sample.name, unit.column, e.what()), e.code(),
                      e.where());
        }
        const std::vector<std::int32_t> ids(tokens.back().begin(), tokens.back().end());
        verdicts.push_back(grammar_verdict(grammar_constraint, ids));
      }
      EngineCell& reference = engine_cells[{unit.column, tok, kGrammarRow}];
      ++reference.units;
      for (std::size_t s = 0; s < unit.samples.size(); ++s) {
        const EngineRun exact = verdicts[s] ? EngineRun{EngineRun::End::kMasked, *verdicts[s]}
                                            : EngineRun{EngineRun::End::kAllowedAll, 0};
        reference.tally.add(unit.samples[s].kind, exact, verdicts[s]);
      }
      const ForcingSetup setup{nullptr, 0};
      for (const std::string& engine_name : engines) {
        EngineCell& cell = engine_cells[{unit.column, tok, engine_name}];
        ++cell.units;
        std::unique_ptr<mask::MaskEngine> engine;
        if (engine_name == "wfa" && compiled) {
          // The artifact Table 3 measured (a wfa engine built from it equals a fresh build).
          engine =
              make_mask_engine("wfa",
                               {grammar, &tokenizer->vocabulary,
                                mask::read_mask_artifact(artifact, grammar, tokenizer->vocabulary)},
                               "--engines");
        } else if (engine_name == "wfa" && !f.empty() && f[0] == "refused") {
          // The child already tried: the engine refuses this grammar.
          fmt::print(stderr, "*** engine 'wfa' refuses this grammar; skipped: {}\n",
                     compile.refusal);
        } else {
          engine = make_engine(engine_name, grammar, tokenizer->vocabulary);
        }
        if (!engine) {
          ++cell.refused_units;
          if (cell.refusal.empty())
            cell.refusal = engine_name == "wfa" ? compile.refusal : "refused (see stderr)";
          for (std::size_t s = 0; s < unit.samples.size(); ++s)
            cell.tally.add(unit.samples[s].kind, {EngineRun::End::kRefusedGrammar, 0}, verdicts[s]);
          continue;
        }
        const Constraint constraint = study_constraint(*tokenizer, grammar, std::move(engine));
        for (std::size_t s = 0; s < unit.samples.size(); ++s) {
          const Sample& sample = unit.samples[s];
          if (unit.samples.size() <= 20 || s % 10 == 0)
            progress(study, fmt::format("{} / {} / {}: {} ({} of {}, {} tokens)", tok, unit.column,
                                        engine_name, sample.name, s + 1, unit.samples.size(),
                                        tokens[s].size()));
          const ForcedRun run = force_text(setup, tokens[s], constraint);
          for (const StepRecord& step : run.steps) cell.mask_us.push_back(step.mask_us);
          const EngineRun outcome = engine_run_of(run);
          const std::size_t disagreements = cell.tally.engine_disagreements;
          cell.tally.add(sample.kind, outcome, verdicts[s]);
          if (!sample_passes(sample.kind, outcome) ||
              cell.tally.engine_disagreements != disagreements)
            failures.add_row({unit.column, tok, engine_name, sample.name,
                              sample.kind == SampleKind::kPositive ? "positive" : "negative",
                              outcome_text(outcome, tokens[s].size()),
                              verdict_text(verdicts[s], tokens[s].size()),
                              run.failure ? portable_message(*run.failure) : ""});
        }
      }
      fs::remove(artifact);
    }
  }
  fs::remove_all(scratch);

  // Table 1.
  std::vector<std::string> overhead_columns = {"grammar",       "tokenizer", "engine", "units",
                                               "refused_units", "samples",   "steps"};
  for (const std::string& c : latency_column_names()) overhead_columns.push_back("mask_" + c);
  overhead_columns.push_back("note");
  ResultTable overhead(overhead_columns);
  std::vector<std::string> layout_columns = {"tokenizer", "engine"};
  layout_columns.insert(layout_columns.end(), columns.begin(), columns.end());
  ResultTable table1(layout_columns);
  std::vector<std::string> plot_columns = {"label"};
  plot_columns.insert(plot_columns.end(), engines.begin(), engines.end());
  ResultTable plot(plot_columns);
  for (const std::string& tok : tokenizer_labels) {
    for (const std::string& engine : engines) {
      std::vector<std::string> layout_row = {tok, engine};
      for (const std::string& column : columns) {
        const EngineCell& cell = engine_cells[{column, tok, engine}];
        std::vector<std::string> row = {column,
                                        tok,
                                        engine,
                                        std::to_string(cell.units),
                                        std::to_string(cell.refused_units),
                                        std::to_string(cell.tally.samples()),
                                        std::to_string(cell.mask_us.size())};
        for (std::string& c : latency_cells(cell.mask_us, 2)) row.push_back(std::move(c));
        row.push_back(cell.refusal);
        overhead.add_row(std::move(row));
        std::string shown = cell.mask_us.empty() ? "X" : format_fixed(mean(cell.mask_us), 2);
        if (!cell.mask_us.empty() && cell.refused_units != 0)
          shown += fmt::format(" (X {} of {})", cell.refused_units, cell.units);
        layout_row.push_back(shown);
      }
      table1.add_row(std::move(layout_row));
    }
    for (const std::string& column : columns) {
      std::vector<std::string> cells = {column + " " + tok};
      for (const std::string& engine : engines) {
        const EngineCell& cell = engine_cells[{column, tok, engine}];
        cells.push_back(cell.mask_us.empty() ? "NaN" : format_fixed(mean(cell.mask_us), 3));
      }
      plot.add_row(std::move(cells));
    }
  }

  // Table 2.
  ResultTable pass_rate({"grammar", "tokenizer", "engine", "positives", "positives_passed",
                         "negatives", "negatives_passed", "engine_refused_x", "schema_refused",
                         "grammar_rejects_positive", "grammar_accepts_negative",
                         "engine_disagreements", "pass_rate_pct", "pass_rate_ran_pct"});
  ResultTable table2(layout_columns);
  for (const std::string& tok : tokenizer_labels) {
    for (const std::string& engine : rows) {
      std::vector<std::string> layout_row = {tok, engine};
      for (const std::string& column : columns) {
        const PassRateTally& t = engine_cells[{column, tok, engine}].tally;
        const std::size_t ran = t.samples() - t.engine_refused - t.grammar_missing;
        pass_rate.add_row(
            {column, tok, engine, std::to_string(t.positives), std::to_string(t.positives_passed),
             std::to_string(t.negatives), std::to_string(t.negatives_passed),
             std::to_string(t.engine_refused), std::to_string(t.grammar_missing),
             std::to_string(t.grammar_rejects_positive), std::to_string(t.grammar_accepts_negative),
             std::to_string(t.engine_disagreements), percent_cell(t.passed(), t.samples()),
             percent_cell(t.passed(), ran)});
        std::string shown = t.all_refused() ? "X" : percent_cell(t.passed(), t.samples()) + "%";
        if (!t.all_refused() && t.engine_refused != 0)
          shown += fmt::format(" (X {})", t.engine_refused);
        layout_row.push_back(shown);
      }
      table2.add_row(std::move(layout_row));
    }
  }

  // Table 3.
  ResultTable preprocessing({"grammar", "tokenizer", "units", "compiled", "cpu_s", "wall_s",
                             "peak_gib", "inputs_peak_gib", "artifact_mib", "zstd_mib", "note"});
  std::vector<std::string> table3_columns = {"metric", "tokenizer"};
  table3_columns.insert(table3_columns.end(), columns.begin(), columns.end());
  ResultTable table3(table3_columns);
  const auto gib = [](std::vector<double> mib) {
    for (double& v : mib) v /= 1024.0;
    return mib;
  };
  for (const std::string& tok : tokenizer_labels)
    for (const std::string& column : columns) {
      const CompileCell& c = compile_cells[{column, tok}];
      preprocessing.add_row({column, tok, std::to_string(c.units), std::to_string(c.cpu_s.size()),
                             mean_cell(c.cpu_s, 2), mean_cell(c.wall_s, 2),
                             mean_cell(gib(c.peak_mib), 3), mean_cell(gib(c.inputs_mib), 3),
                             mean_cell(c.artifact_mib, 3), mean_cell(c.zstd_mib, 3), c.refusal});
    }
  for (const auto& [metric, label, decimals] :
       {std::tuple{&CompileCell::cpu_s, "Time (CPU s)", 2},
        std::tuple{&CompileCell::peak_mib, "Memory (GiB)", 3},
        std::tuple{&CompileCell::artifact_mib, "Disk (MiB)", 3},
        std::tuple{&CompileCell::zstd_mib, "Disk after zstd (MiB)", 3}}) {
    for (const std::string& tok : tokenizer_labels) {
      std::vector<std::string> row = {label, tok};
      for (const std::string& column : columns) {
        const CompileCell& c = compile_cells[{column, tok}];
        std::vector<double> values = c.*metric;
        if (metric == &CompileCell::peak_mib) values = gib(values);
        std::string shown = values.empty() ? "X" : format_fixed(mean(values), decimals);
        if (!values.empty() && c.cpu_s.size() != c.units)
          shown += fmt::format(" (X {} of {})", c.units - c.cpu_s.size(), c.units);
        row.push_back(shown);
      }
      table3.add_row(std::move(row));
    }
  }

  std::size_t schema_units = 0;
  for (const GrammarUnit& unit : units) schema_units += unit.column == kSchemas;
  report.add_text(fmt::format(
      "Teacher forcing as PSC does it (paper 001, §4.2): every sample is encoded by the real "
      "tokenizer and forced token by token, then EOS, through each engine's mask. Grammars: "
      "SynCode's Java, Go and SQL with SynCode's conventions over the corpus programs ({} per "
      "grammar), and {} MaskBench schema(s) (`{}`), each compiled by the JSON Schema front-end "
      "into its own grammar, with its valid instances as positive and its invalid ones as "
      "negative samples (Python `json.dumps` layout). PSC's Qwen2.5 is measured with the Qwen3 "
      "tokenizer. Every registered engine runs except the oracle (too slow for every step; "
      "`--engines` picks).",
      programs == 0 ? std::string("all") : std::to_string(programs), schema_units, kSchemas));
  report.add_table("table1", "Table 1: mean mask overhead per token (µs)", table1);
  report.add_text(
      "Wall time of each `fill_mask` call (dense mask included), as in `tail_latency`, pooled "
      "over every step of every sample (negative samples up to the step the engine rejected); "
      "JSON Schemas: pooled over all schemas. X: the engine refused the grammar (for some "
      "schemas: \"X k of n\"). Per-cell percentiles in `overhead.csv`.");
  report.add_table("overhead", "Mask overhead per cell (µs)", overhead);
  report.add_table("table2", "Table 2: sample pass rate", table2);
  report.add_text(
      "PSC's definition (their footnote 3): a sample is rejected when the mask of some step lacks "
      "the real next token (EOS at the end); a positive sample passes iff it is never rejected, a "
      "negative one iff it is. Rates are over all samples; X counts samples whose grammar the "
      "engine refused (they fail). `grammar (exact)` is the grammar's own verdict (a "
      "`glr::Session`): what an exact engine scores, so the rows below it separate grammar "
      "failures (`grammar_rejects_positive`, `grammar_accepts_negative`, `schema_refused`: the "
      "front-end refused the schema) from engine failures (`engine_disagreements`: the engine "
      "rejected at another step than the grammar, or allowed a token the grammar refuses). "
      "`pass_rate_ran_pct` leaves out the samples no grammar or engine was built for.");
  report.add_table("pass_rate", "Pass-rate accounting per cell", pass_rate);
  report.add_table("table3", "Table 3: wfa preprocessing per grammar (JSON Schemas: mean)", table3);
  report.add_text(fmt::format(
      "Per grammar (per schema) a fresh child process loads the vocabulary, compiles the "
      "grammar (lexer DFA, LALR table) and then the wfa automata (Terminal DWA, Parser DWA), "
      "and writes the artifact of `glrmask compile -o` (mask/artifact/mask_artifact.h). Time: CPU "
      "seconds "
      "of both compile steps (all threads; the Terminal DWA uses TBB), wall seconds in the CSV. "
      "Memory: the child's peak resident set (VmHWM), vocabulary included "
      "(`inputs_peak_gib`: the peak before compiling). Disk: the artifact's size, and {}. "
      "JSON Schemas: means over the schemas that compiled.",
      zstd_available() ? "its size after `zstd` at the default level 3 (PSC compresses with "
                         "zstandard)"
                       : "no zstd size (`zstd` is not installed)"));
  report.add_table("preprocessing", "Preprocessing per cell", preprocessing);
  report.add_data_table("units", unit_table);
  if (!failures.rows().empty())
    report.add_table("failures",
                     "Samples that did not pass, or where an engine disagreed "
                     "with the grammar",
                     failures);
  report.add_data_table("plot", plot);
  report.add_plot("overhead", "mean mask overhead per token (us, log scale)",
                  fmt::format("set style data histogram\nset style histogram clustered gap 1\n"
                              "set style fill solid 0.8 border -1\nset logscale y\n"
                              "set xtics rotate by -30\nset ylabel 'us per token'\n"
                              "set key autotitle columnhead\n"
                              "plot for [i=2:{}] 'plot.csv' using i:xtic(1)",
                              plot_columns.size()));
  report.finish();
  std::size_t disagreements = 0;
  for (const auto& [key, cell] : engine_cells) disagreements += cell.tally.engine_disagreements;
  return disagreements == 0 ? 0 : 1;
}

}  // namespace glrmask::experiments
