// jump_forward: at every teacher-forced step of every corpus text, the library's jump-forward
// string (Matcher::find_jump_forward_string) against the longest common prefix of all completions
// found by the oracle over the 256 single bytes (tests/support/jump_forward_reference.h does the
// same for the fixtures), and the real text's continuation must start with it. Default corpora:
// JSON (MaskBench instances) and SQL; the tokenizer only decides where the steps fall.
#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>

#include "api/src/constraint_source.h"
#include "api/src/matcher_impl.h"
#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "glrmask/glrmask.hpp"
#include "lib/core/error.h"
#include "lib/core/escape.h"
#include "lib/core/file_io.h"
#include "lib/core/settings.h"
#include "lib/json_schema/value.h"
#include "lib/token_set/dense_mask.h"
#include "mask/oracle/oracle_engine.h"

namespace glrmask::experiments {
namespace {

// Token i < 256 is the byte i; 256 the stop id.
Tokenizer byte_tokenizer() {
  std::vector<std::string> pieces;
  for (int byte = 0; byte < 256; ++byte) pieces.emplace_back(1, static_cast<char>(byte));
  pieces.emplace_back("<eos>");
  return Tokenizer::from_vocab(pieces, VocabType::kRaw, {256});
}

// The longest common prefix of all completions of `session`'s text, by the oracle: while the
// text is incomplete and exactly one byte keeps it viable, that byte.
std::string oracle_forced(const glr::Session& session, mask::OracleEngine& oracle,
                          DenseMask& mask) {
  glr::Session state = session.clone();
  std::string forced;
  if (state.is_finished()) return forced;
  while (forced.size() < (1u << 16)) {
    oracle.fill_mask(state, mask.words());
    if (mask.test(256)) break;
    int only = -1;
    int viable = 0;
    for (int byte = 0; byte < 256 && viable < 2; ++byte)
      if (mask.test(static_cast<TokenId>(byte))) only = byte, ++viable;
    if (viable != 1) break;
    const char c = static_cast<char>(only);
    if (!state.try_commit_bytes(std::string_view(&c, 1)))
      throw Error("the oracle allowed a byte the session refuses", ErrorCode::kInternal);
    forced.push_back(c);
  }
  return forced;
}

std::string printable(std::string_view bytes) {
  return escape_bytes(bytes, {.keep_utf8 = false, .hex_controls = true, .hex_also = "\\\""});
}

struct Tally {
  std::atomic<std::uint64_t> texts{0}, rejected{0}, steps{0}, forced_steps{0}, forced_bytes{0},
      mismatches{0}, not_prefix{0}, longest{0};
  std::mutex mutex;
  std::optional<std::pair<std::size_t, std::string>> first;  // (text index, what differed)
};

// Teacher-forces each text through `constraint` and compares the forced strings at every step.
void check_texts(const Constraint& constraint, const Tokenizer& tokenizer,
                 const std::vector<std::pair<std::string, std::string>>& texts,  // (name, text)
                 const Vocabulary& bytes, Tally& tally) {
  tbb::parallel_for(std::size_t{0}, texts.size(), [&](std::size_t t) {
    const auto& [name, text] = texts[t];
    mask::OracleEngine oracle(bytes, {.sequential = true});
    DenseMask mask(static_cast<std::uint32_t>(bytes.size()));
    Matcher matcher(constraint);
    const std::vector<std::int32_t> tokens = tokenizer.encode(text);
    std::uint64_t offset = 0;
    ++tally.texts;
    for (std::size_t step = 0; step <= tokens.size(); ++step) {
      const std::string forced = matcher.find_jump_forward_string();
      const std::string expected = oracle_forced(matcher.impl().session, oracle, mask);
      ++tally.steps;
      if (!forced.empty()) ++tally.forced_steps;
      tally.forced_bytes += forced.size();
      for (std::uint64_t seen = tally.longest.load();
           forced.size() > seen && !tally.longest.compare_exchange_weak(seen, forced.size());) {
      }
      const bool prefix = text.compare(offset, forced.size(), forced) == 0;
      if (!prefix) ++tally.not_prefix;
      if (forced != expected || !prefix) {
        ++tally.mismatches;
        const std::lock_guard lock(tally.mutex);
        if (!tally.first || t < tally.first->first)
          tally.first = {t, fmt::format("{} step {} byte {}: library {}, oracle {}", name, step,
                                        offset, printable(forced), printable(expected))};
      }
      if (step == tokens.size()) break;
      // A text the grammar rejects (a few MaskBench instances for SynCode's JSON grammar) is
      // compared up to the refused token.
      if (!matcher.accept_token(tokens[step])) {
        ++tally.rejected;
        break;
      }
      offset += tokenizer.token_bytes(tokens[step]).size();
    }
  });
}

// The library's constraint for a corpus grammar with the study's options.
ConstraintSource corpus_source(const Corpus& corpus, const StudyOptions& options) {
  ConstraintSource source;
  source.format = corpus.format;
  source.name = corpus.grammar_path.string();
  source.text = read_text_file(corpus.grammar_path);
  const glr::ParseOptions parse = corpus_parse_options(corpus, options);
  source.grammar = grammar_options(parse);
  return source;
}

// No engine is needed: jump-forward reads the parse state only.
Constraint without_engine(const ConstraintSource& source, const Tokenizer& tokenizer) {
  CompileOptions compile;
  compile.engine = Engine::kOracle;
  return Constraint::wrap(build_constraint(source, tokenizer, compile));
}

void add_row(ResultTable& table, const std::string& grammar, const std::string& tokenizer,
             const Tally& tally, double seconds, std::size_t refused = 0) {
  table.add_row({grammar, tokenizer, std::to_string(tally.texts.load()),
                 std::to_string(tally.rejected.load()), std::to_string(refused),
                 std::to_string(tally.steps.load()), std::to_string(tally.forced_steps.load()),
                 std::to_string(tally.forced_bytes.load()), std::to_string(tally.longest.load()),
                 std::to_string(tally.mismatches.load()), std::to_string(tally.not_prefix.load()),
                 fmt::format("{:.1f}", seconds), tally.first ? tally.first->second : ""});
}

}  // namespace

int run_jump_forward(const StudyOptions& options) {
  using Clock = std::chrono::steady_clock;
  const std::string study = "jump_forward";
  const std::vector<Corpus> corpora =
      load_corpora(options, {"json", "sql"}, options.small() ? 20 : 0);
  const std::vector<std::string> tokenizers = tokenizer_names(options, {"llama3"});
  StudyReport report(options.out_dir,
                     "Jump-forward: the forced string against the oracle's longest common prefix",
                     describe_run(study, options.size_name(), tokenizers));
  ResultTable table({"grammar", "tokenizer", "texts", "rejected_texts", "refused_schemas", "steps",
                     "forced_steps", "forced_bytes", "longest_forced", "mismatch_steps",
                     "not_a_prefix", "seconds", "first_mismatch"});
  const Tokenizer bytes = byte_tokenizer();
  const Vocabulary& byte_vocabulary = bytes.impl().vocabulary;
  for (const std::string& tokenizer_name : tokenizers) {
    const Tokenizer tokenizer = Tokenizer::load(tokenizer_name);
    for (const Corpus& corpus : corpora) {
      progress(study, fmt::format("{} with {} ({} texts)", corpus.name, tokenizer_name,
                                  corpus.texts.size()));
      const Constraint constraint = without_engine(corpus_source(corpus, options), tokenizer);
      std::vector<std::pair<std::string, std::string>> texts;
      for (const CorpusText& text : corpus.texts) texts.emplace_back(text.name, text.text);
      Tally tally;
      const Clock::time_point started = Clock::now();
      check_texts(constraint, tokenizer, texts, byte_vocabulary, tally);
      add_row(table, corpus.name, tokenizer_name, tally,
              std::chrono::duration<double>(Clock::now() - started).count());
    }

    // Each MaskBench schema with its own valid instances (written as json.dumps writes them):
    // required properties and constants make forced strings common here.
    const std::filesystem::path folder = data_dir() / "jsonschema" / "maskbench-dev";
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(folder))
      for (const auto& entry : std::filesystem::directory_iterator(folder))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    if (options.small() && files.size() > 30) files.resize(30);
    progress(study,
             fmt::format("MaskBench schemas with {} ({} files)", tokenizer_name, files.size()));
    Tally tally;
    std::size_t refused = 0;
    const Clock::time_point started = Clock::now();
    for (const std::filesystem::path& file : files) {
      const json_schema::JsonValue document =
          json_schema::parse_json(read_text_file(file), file.string());
      ConstraintSource source;
      source.format = "json_schema";
      source.name = file.stem().string();
      source.text = json_schema::to_json_text(*document.find("schema"));
      std::optional<Constraint> constraint;
      try {
        constraint = without_engine(source, tokenizer);
      } catch (const Error&) {
        ++refused;  // a schema the compiler refuses has nothing to jump over
        continue;
      }
      std::vector<std::pair<std::string, std::string>> texts;
      const json_schema::JsonValue* valid = document.find("valid");
      for (std::size_t k = 0; valid != nullptr && k < valid->items.size(); ++k)
        texts.emplace_back(fmt::format("{}#{}", source.name, k),
                           json_schema::to_json_text(valid->items[k]));
      check_texts(*constraint, tokenizer, texts, byte_vocabulary, tally);
    }
    add_row(table, "maskbench schemas", tokenizer_name, tally,
            std::chrono::duration<double>(Clock::now() - started).count(), refused);
  }
  report.add_text(
      "At every teacher-forced step (EOS step included), `Matcher::find_jump_forward_string()` "
      "against the longest common prefix of all completions computed by the oracle engine over a "
      "vocabulary of the 256 single bytes (while the text is incomplete and exactly one byte "
      "keeps it viable, that byte is forced), and the real text's continuation must start with "
      "it. `mismatch_steps` counts steps where either failed; `not_a_prefix` the second alone; a "
      "text the grammar rejects is compared up to the refused token (`rejected_texts`). "
      "The corpora: SynCode's JSON grammar on MaskBench instances and its SQL grammar on the SQL "
      "queries; then each MaskBench schema compiled by the JSON Schema front-end on its own valid "
      "instances (`refused_schemas`: schemas the compiler refuses).\n\n");
  report.add_table("jump_forward", "Forced strings", table);
  report.finish();
  std::uint64_t failed = 0;
  for (const auto& row : table.rows()) failed += std::stoull(row[9]);
  return failed == 0 ? 0 : 1;
}

}  // namespace glrmask::experiments
