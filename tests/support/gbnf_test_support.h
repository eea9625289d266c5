// GBNF grammars in the tests: compiled through the source registry (the lowering with the lexer's
// munch check, as every user gets it), sentences recognized by the GLR session, and the
// independent reference (tests/reference/gbnf_earley.py: an Earley recognizer over code points,
// written from the format's description) asked about the same texts.
#pragma once

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/src/constraint_source.h"
#include "glr/incremental_recognizer.h"
#include "lib/json_schema/value.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/test_support.h"

namespace glrmask::testing {

inline std::shared_ptr<const glr::CompiledGrammar> compile_gbnf(
    std::string_view text, const std::string& start = "start") {
  SourceOptions options;
  options.grammar.start = start;
  return ConstraintSource::make("gbnf", text, options, "test.gbnf").compile();
}

// Whole-text membership, through the parser every engine is checked against.
class GbnfRecognizer {
 public:
  explicit GbnfRecognizer(std::string_view text, const std::string& start = "start")
      : recognizer_(std::make_shared<const glr::IncrementalRecognizer>(compile_gbnf(text, start))) {
  }
  bool accepts(std::string_view text) const { return verdict_of(recognizer_, text).accepted; }
  const std::shared_ptr<const glr::IncrementalRecognizer>& recognizer() const {
    return recognizer_;
  }

 private:
  std::shared_ptr<const glr::IncrementalRecognizer> recognizer_;
};

inline bool python3_available() {
  return run_command("python3 -c 'import json'").exit_code == 0;
}

// The reference's verdict on each text (whole sentence, or with `prefix` a prefix of one), or
// nullopt when it refuses the grammar; fails the test when python3 cannot run it.
inline std::optional<std::vector<bool>> earley_verdicts(std::string_view grammar,
                                                        const std::vector<std::string>& texts,
                                                        const std::string& start = "root",
                                                        bool prefix = false) {
  const ScratchDir scratch;
  const auto grammar_file = scratch.write("grammar.gbnf", grammar);
  std::string inputs;
  for (const std::string& text : texts) inputs += json_schema::quote_json_string(text) + "\n";
  const auto inputs_file = scratch.write("inputs.jsonl", inputs);
  const auto script = source_dir() / "tests" / "reference" / "gbnf_earley.py";
  const CommandResult run =
      run_command("python3 " + shell_quoted(script) + " " + shell_quoted(grammar_file) +
                  " --start " + shell_quoted(start) + (prefix ? " --prefix" : "") + " < " +
                  shell_quoted(inputs_file) + " 2>&1");
  if (run.exit_code == 2) return std::nullopt;
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  std::vector<bool> verdicts;
  for (std::size_t at = 0; at < run.output.size();) {
    const std::size_t end = run.output.find('\n', at);
    const std::string line = run.output.substr(at, end - at);
    REQUIRE((line == "0" || line == "1"));
    verdicts.push_back(line == "1");
    if (end == std::string::npos) break;
    at = end + 1;
  }
  REQUIRE(verdicts.size() == texts.size());
  return verdicts;
}

}  // namespace glrmask::testing
