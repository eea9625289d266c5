// json_schema_suite: the official JSON-Schema-Test-Suite (the data folder's
// jsonschema/test-suite) through the schema compiler, draft by draft
// (experiments/support/json_schema_suite.h): every group's schema compiled under any property
// order, every instance in four json.dumps spellings teacher-forced byte by byte through a
// session. Writes the rates per draft and per keyword file, the refusals by reason, and every
// wrong verdict (an invalid instance accepted, a valid one refused) with its spelling.
// `--size small` takes every fourth group.
#include "experiments/support/json_schema_suite.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "api/src/tokenizer_impl.h"
#include "experiments/studies/run_header.h"
#include "experiments/studies/studies.h"
#include "experiments/studies/study_report.h"
#include "glrmask/glrmask.hpp"
#include "harness/engine_constraint.h"
#include "harness/mask_engines.h"
#include "harness/teacher_forcing.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/json_schema/formats.h"
#include "lib/tokenizer/encoder.h"

namespace glrmask::experiments {
namespace {

struct SuiteTally {
  std::size_t groups = 0, compiled = 0, correctly_refused = 0, refused = 0;
  std::size_t valid = 0, invalid = 0;  // instances of compiled groups
  std::vector<std::size_t> valid_accepted = std::vector<std::size_t>(suite_spellings().size());
  std::vector<std::size_t> invalid_accepted = std::vector<std::size_t>(suite_spellings().size());

  void add(const SuiteGroup& group, const GroupOutcome& outcome) {
    ++groups;
    if (outcome.status == GroupStatus::kCorrectlyRefused) ++correctly_refused;
    if (outcome.status == GroupStatus::kRefused) ++refused;
    if (outcome.status != GroupStatus::kCompiled) return;
    ++compiled;
    for (std::size_t t = 0; t < group.tests.size(); ++t) {
      ++(group.tests[t].valid ? valid : invalid);
      for (std::size_t s = 0; s < suite_spellings().size(); ++s)
        if (outcome.accepted[t][s]) ++(group.tests[t].valid ? valid_accepted : invalid_accepted)[s];
    }
  }
  std::string passed_rate() const {
    return fmt::format("{:.1f}%", groups
                                      ? 100.0 * static_cast<double>(compiled + correctly_refused) /
                                            static_cast<double>(groups)
                                      : 0.0);
  }
};

// Each engine's masks against the oracle's at every teacher-forced step of the valid instances
// of the chosen groups (one engine built per grammar, the oracle following the same tokens).
struct MaskComparison {
  MaskComparison(const std::string& tokenizer, const std::vector<std::string>& engine_names)
      : tokenizer_name(tokenizer), handle(Tokenizer::load(tokenizer)) {
    for (const std::string& name : engine_names)
      if (name != "oracle") engines.push_back({name});
  }

  void compare(const std::vector<SuiteGroup>& suite_groups,
               const std::vector<GroupOutcome>& outcomes, std::size_t per_draft) {
    std::vector<std::size_t> compiled;
    for (std::size_t g = 0; g < suite_groups.size(); ++g)
      if (outcomes[g].status == GroupStatus::kCompiled) compiled.push_back(g);
    const std::size_t stride = std::max<std::size_t>(1, compiled.size() / per_draft);
    const Vocabulary& vocabulary = handle.impl().vocabulary;
    for (std::size_t k = 0; k < compiled.size() && k / stride < per_draft; k += stride) {
      const SuiteGroup& group = suite_groups[compiled[k]];
      const GroupOutcome& outcome = outcomes[compiled[k]];
      ++groups_compared;
      for (const bool indented : {false, true}) {
        const auto& grammar = indented ? outcome.flexible_grammar : outcome.grammar;
        const Constraint oracle = constraint_over_engine(
            handle, grammar,
            make_mask_engine("oracle", EngineInputs{grammar, &vocabulary}, "--engines"));
        for (EngineTally& engine : engines) {
          std::optional<Constraint> built;
          try {
            built.emplace(constraint_over_engine(
                handle, grammar,
                make_mask_engine(
                    engine.name,
                    EngineInputs{grammar, &vocabulary, nullptr, &handle.impl().vocabulary_tables()},
                    "--engines")));
          } catch (const Error&) {
            ++engine.refused;
            continue;
          }
          const Constraint& constraint = *built;
          for (const SuiteTest& test : group.tests) {
            if (!test.valid) continue;
            for (const SuiteSpelling& spelling : suite_spellings()) {
              if (spelling.indented != indented) continue;
              const std::string text =
                  python_json_dumps(test.data, spelling.ensure_ascii, spelling.indented);
              const std::vector<TokenId> ids = handle.impl().encoder->encode(text);
              const std::vector<std::int32_t> tokens(ids.begin(), ids.end());
              Matcher leader(constraint);
              Matcher follower(oracle);
              Matcher* followers[] = {&follower};
              const glrmask::ForcedRun forced = teacher_force(leader, tokens, {}, followers);
              ++engine.instances;
              engine.steps += forced.steps;
              engine.mismatches += forced.follower_mismatch_steps[0];
              if (forced.failure) ++engine.failures;
            }
          }
        }
      }
    }
    groups += groups_compared;
    groups_compared = 0;
  }

  ResultTable table() const {
    ResultTable out({"engine", "instances", "steps", "mismatching steps", "instances refused",
                     "grammars the engine refused"});
    for (const EngineTally& e : engines)
      out.add_row({e.name, std::to_string(e.instances), std::to_string(e.steps),
                   std::to_string(e.mismatches), std::to_string(e.failures),
                   std::to_string(e.refused)});
    return out;
  }

  struct EngineTally {
    std::string name;
    std::size_t instances = 0, steps = 0, mismatches = 0, failures = 0, refused = 0;
  };
  std::string tokenizer_name;
  Tokenizer handle;
  std::vector<EngineTally> engines;
  std::size_t groups = 0, groups_compared = 0;
};

}  // namespace

int run_json_schema_suite(const StudyOptions& options) {
  const std::filesystem::path suite = data_dir() / "jsonschema" / "test-suite";
  StudyReport report(options.out_dir, "JSON Schema: the official test suite",
                     describe_run("json_schema_suite", options.size_name(), {}));
  report.write_header();
  SuiteRunOptions run;
  run.remotes = load_suite_remotes(suite);
  std::vector<std::string> spelling_columns;
  for (const SuiteSpelling& s : suite_spellings()) spelling_columns.push_back(s.name);

  std::vector<std::string> draft_columns = {
      "draft", "groups", "compiled", "correctly refused", "refused", "compiled or correct",
      "valid", "invalid"};
  for (const std::string& s : spelling_columns) draft_columns.push_back("valid accepted, " + s);
  for (const std::string& s : spelling_columns) draft_columns.push_back("invalid accepted, " + s);
  ResultTable drafts(draft_columns);
  ResultTable keywords(
      {"draft", "keyword", "groups", "compiled or correct", "valid refused", "invalid accepted"});
  ResultTable wrong({"draft", "file", "group", "test", "valid", "spellings accepted"});
  std::map<std::string, std::map<std::string, std::size_t>> reasons;  // reason -> draft -> n
  std::size_t total_invalid_accepted = 0;
  std::optional<MaskComparison> masks;
  if (!options.engines.empty())
    masks.emplace(options.tokenizers.empty() ? "llama3" : options.tokenizers[0], options.engines);
  for (const std::string& draft : suite_drafts()) {
    std::vector<SuiteGroup> groups = load_suite_groups(suite, draft);
    if (options.small()) {
      std::vector<SuiteGroup> every_fourth;
      for (std::size_t i = 0; i < groups.size(); i += 4) every_fourth.push_back(groups[i]);
      groups = std::move(every_fourth);
    }
    SuiteTally tally;
    std::map<std::string, SuiteTally> per_keyword;
    std::vector<GroupOutcome> outcomes;
    for (const SuiteGroup& group : groups) outcomes.push_back(run_suite_group(group, run));
    if (masks) masks->compare(groups, outcomes, options.max_programs ? options.max_programs : 25);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const SuiteGroup& group = groups[g];
      const GroupOutcome& outcome = outcomes[g];
      tally.add(group, outcome);
      per_keyword[group.keyword].add(group, outcome);
      if (outcome.status == GroupStatus::kRefused) ++reasons[outcome.reason_key][draft];
      for (std::size_t t = 0; t < outcome.accepted.size(); ++t) {
        std::string spellings;
        std::size_t accepted = 0;
        for (std::size_t s = 0; s < suite_spellings().size(); ++s) {
          if (outcome.accepted[t][s] == group.tests[t].valid) continue;
          spellings += (spellings.empty() ? "" : ", ") + suite_spellings()[s].name;
          ++accepted;
        }
        if (accepted == 0) continue;
        if (!group.tests[t].valid) total_invalid_accepted += accepted;
        wrong.add_row({draft, group.file, group.description, group.tests[t].description,
                       group.tests[t].valid ? "valid, refused in" : "INVALID, accepted in",
                       spellings});
      }
    }
    std::vector<std::string> row = {draft,
                                    std::to_string(tally.groups),
                                    std::to_string(tally.compiled),
                                    std::to_string(tally.correctly_refused),
                                    std::to_string(tally.refused),
                                    tally.passed_rate(),
                                    std::to_string(tally.valid),
                                    std::to_string(tally.invalid)};
    for (std::size_t n : tally.valid_accepted) row.push_back(std::to_string(n));
    for (std::size_t n : tally.invalid_accepted) row.push_back(std::to_string(n));
    drafts.add_row(row);
    for (const auto& [keyword, t] : per_keyword) {
      std::size_t valid_refused = 0, invalid_accepted = 0;
      for (std::size_t s = 0; s < suite_spellings().size(); ++s) {
        valid_refused += t.valid - t.valid_accepted[s];
        invalid_accepted += t.invalid_accepted[s];
      }
      keywords.add_row({draft, keyword, std::to_string(t.groups), t.passed_rate(),
                        std::to_string(valid_refused), std::to_string(invalid_accepted)});
    }
    progress("json_schema_suite",
             fmt::format("{}: {} groups, {} compiled, {} correctly refused, {} invalid accepted",
                         draft, tally.groups, tally.compiled, tally.correctly_refused,
                         tally.invalid_accepted[0]));
  }
  // optional/format: every format file of every draft, `format` asserted. A format matched by a
  // subset may refuse valid strings; one left an annotation accepts invalid ones (not counted as
  // wrong masks: the grammar does not claim it).
  ResultTable formats({"draft", "format", "enforced", "groups", "compiled", "valid accepted",
                       "valid refused", "invalid accepted"});
  for (const std::string& draft : suite_drafts()) {
    std::vector<SuiteGroup> groups = load_format_groups(suite, draft);
    std::vector<GroupOutcome> outcomes;
    for (const SuiteGroup& group : groups) outcomes.push_back(run_suite_group(group, run));
    // The format grammars under the engines too: the newest draft's format files (a superset
    // of the older drafts' formats).
    if (masks && !options.small() && draft == suite_drafts().back())
      masks->compare(groups, outcomes, groups.size());
    std::map<std::string, std::vector<std::size_t>> per_format;  // 5 counts as in the table
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const SuiteGroup& group = groups[g];
      const GroupOutcome& outcome = outcomes[g];
      const std::string stem = group.keyword.substr(group.keyword.rfind('/') + 1);
      const std::string asserted = suite_group_format(group);
      const std::string format = asserted == stem ? stem : stem + " (" + asserted + ")";
      std::vector<std::size_t>& counts = per_format[format];
      counts.resize(5);
      ++counts[0];
      if (outcome.status != GroupStatus::kCompiled) continue;
      ++counts[1];
      counts[2] += outcome.valid_accepted;
      counts[3] += outcome.valid_refused;
      counts[4] += outcome.invalid_accepted;
    }
    for (const auto& [format, counts] : per_format) {
      // "ecmascript-regex (regex)": the kind is the asserted format's.
      const std::size_t open = format.find(" (");
      const std::string asserted =
          open == std::string::npos ? format : format.substr(open + 2, format.size() - open - 3);
      const bool known = json_schema::format_regex(asserted).has_value();
      const std::string enforced = !known                                         ? "annotation"
                                   : json_schema::format_regex_is_exact(asserted) ? "exact"
                                                                                  : "subset";
      if (known) total_invalid_accepted += counts[4];
      formats.add_row({draft, format, enforced, std::to_string(counts[0]),
                       std::to_string(counts[1]), std::to_string(counts[2]),
                       std::to_string(counts[3]), std::to_string(counts[4])});
    }
  }
  std::vector<std::string> reason_columns = {"reason"};
  for (const std::string& d : suite_drafts()) reason_columns.push_back(d);
  ResultTable refusals(reason_columns);
  for (const auto& [reason, counts] : reasons) {
    std::vector<std::string> row = {reason};
    for (const std::string& d : suite_drafts())
      row.push_back(counts.count(d) ? std::to_string(counts.at(d)) : "");
    refusals.add_row(row);
  }
  report.add_text(
      "Required tests of each draft plus the optional bignum, ecmascript-regex, non-bmp-regex and "
      "float-overflow files; any property order; `format` asserted. Each instance is written as "
      "Python's json.dumps writes it (ascii: the default; unicode: ensure_ascii=False; indented: "
      "indent=2 under `--json-whitespace flexible`). \"compiled or correct\" counts refusals of "
      "schemas no value satisfies as passes.\n\n");
  report.add_table("drafts", "Per draft", drafts);
  report.add_table("refusals", "Refused groups by reason", refusals);
  report.add_table("keywords", "Per keyword file", keywords);
  report.add_table("wrong", "Wrong verdicts", wrong);
  report.add_text(
      "\n## Formats\n\nThe optional/format files, `format` asserted, instances in every "
      "spelling (counts per instance and spelling). \"exact\": the grammar matches the format's "
      "strings; \"subset\": some valid strings are refused, no invalid one accepted; "
      "\"annotation\": not enforced, invalid strings accepted by design.\n\n");
  report.add_table("formats", "Per format", formats);
  if (masks) {
    report.add_text(fmt::format(
        "\n## Masks against the oracle\n\nEvery valid instance of {} compiled groups (spread "
        "over each draft's compiled groups, `--max-programs` per draft, and with `--size full` "
        "every compiled optional/format group of draft 2020-12), in every spelling, "
        "teacher-forced with {} through each engine beside the oracle; a mismatching step is one "
        "whose mask differs from the oracle's in any token, EOS included.\n\n",
        masks->groups, masks->tokenizer_name));
    report.add_table("oracle", "Engines against the oracle", masks->table());
  }
  report.finish();
  return total_invalid_accepted == 0 ? 0 : 1;
}

}  // namespace glrmask::experiments
