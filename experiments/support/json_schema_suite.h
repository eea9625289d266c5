// The official JSON-Schema-Test-Suite run through the schema compiler, as a user would run it:
// each group's schema compiled (with the group's folder as the draft of a schema without
// `$schema`), each instance written the ways Python's json.dumps writes it, and each spelling
// teacher-forced byte by byte through a glr::Session. The suite's `remotes/` folder is
// registered as the documents of http://localhost:1234/ (the suite's convention), never fetched.
//
// An instance the suite calls invalid and the grammar accepts is a wrong mask (the grammar
// over-approximates the schema); a valid one refused is a completeness gap. A group whose schema
// is refused because no value satisfies it, and whose instances are all invalid, is a correct
// refusal.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"

namespace glrmask::experiments {

// One way of writing an instance: json.dumps's ensure_ascii, and indent=2 (which needs the
// flexible whitespace mode) or the default separators.
struct SuiteSpelling {
  std::string name;
  bool ensure_ascii = true;
  bool indented = false;
};
// ascii (json.dumps default), unicode (ensure_ascii=False), and both indented under
// --json-whitespace flexible.
const std::vector<SuiteSpelling>& suite_spellings();

// json.dumps(value, ensure_ascii=..., indent=2 if indented else None): floats as Python's repr
// writes them (1e+308, 1.0), integers as written, strings escaped as json.dumps escapes them.
std::string python_json_dumps(const json_schema::JsonValue& value, bool ensure_ascii,
                              bool indented);

struct SuiteTest {
  std::string description;
  json_schema::JsonValue data;
  bool valid = false;
};

struct SuiteGroup {
  std::string draft;    // the folder: draft4, draft6, draft7, draft2019-09, draft2020-12
  std::string file;     // relative to the suite's tests/ folder, e.g. draft7/optional/bignum.json
  std::string keyword;  // the file's stem (optional files: optional/<stem>)
  std::string description;
  json_schema::JsonValue schema;
  std::vector<SuiteTest> tests;
};

// The suite's drafts this runner knows, oldest first.
const std::vector<std::string>& suite_drafts();
// The optional files of each draft taken with the required ones (bignum, ecmascript-regex,
// non-bmp-regex, float-overflow).
const std::vector<std::string>& suite_optional_files();

// Reads the required files of `draft` and the optional files above from `suite_dir`
// (the folder holding tests/ and remotes/). Throws glrmask::Error naming an unreadable file.
std::vector<SuiteGroup> load_suite_groups(const std::filesystem::path& suite_dir,
                                          const std::string& draft);

// The optional/format files of `draft` (one per format, keyword optional/format/<format>), run
// apart from the required tests: a format this compiler matches by a subset refuses some valid
// strings, and one it leaves an annotation accepts invalid ones.
std::vector<SuiteGroup> load_format_groups(const std::filesystem::path& suite_dir,
                                           const std::string& draft);
// The `format` a format group's schema names (ecmascript-regex.json tests "regex"); the file's
// stem when the schema names none.
std::string suite_group_format(const SuiteGroup& group);

enum class GroupStatus {
  kCompiled,
  kCorrectlyRefused,  // no value satisfies the schema, and the suite has no valid instance
  kRefused,
};

struct GroupOutcome {
  GroupStatus status = GroupStatus::kRefused;
  std::string reason;      // the compiler's message for a refusal
  std::string reason_key;  // the message without its location and quoted values, for grouping
  // Per test, per spelling (suite_spellings() order): accepted by the grammar.
  std::vector<std::vector<bool>> accepted;
  std::size_t valid_accepted = 0, valid_refused = 0;  // counted per (test, spelling)
  std::size_t invalid_refused = 0, invalid_accepted = 0;
  // The compiled grammars (default whitespace, flexible) of a compiled group.
  std::shared_ptr<const glr::CompiledGrammar> grammar, flexible_grammar;
};

struct SuiteRunOptions {
  json_schema::PropertyOrder property_order = json_schema::PropertyOrder::kAny;
  bool assert_format = true;
  // The documents remote references may name (load_suite_remotes).
  std::vector<json_schema::RegisteredDocument> remotes;
};

// Every file of the suite's remotes/ folder, registered as http://localhost:1234/<its path>.
std::vector<json_schema::RegisteredDocument> load_suite_remotes(
    const std::filesystem::path& suite_dir);

// Compiles the group's schema (default and flexible whitespace) and checks every instance in
// every spelling. Never throws for a schema the compiler refuses: that is the outcome.
GroupOutcome run_suite_group(const SuiteGroup& group, const SuiteRunOptions& options);

// "draft2019-09" -> Draft::k2019_09.
json_schema::Draft draft_of_folder(const std::string& folder);

}  // namespace glrmask::experiments
