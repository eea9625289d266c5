#include "experiments/support/json_schema_suite.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <regex>
#include <system_error>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/unicode_utf8.h"

namespace glrmask::experiments {
namespace {

using json_schema::JsonValue;

// Python's repr of a float: the shortest digits that read back as the same double, in fixed
// notation when the decimal exponent is in [-4, 16), else d.ddde+XX.
std::string python_float_repr(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-Infinity" : "Infinity";
  char buffer[64];
  const auto [end, error] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  if (error != std::errc{}) throw Error("float formatting failed", ErrorCode::kInternal);
  const std::string text(buffer, end);  // [-]d[.ddd]e(+|-)XX
  const std::size_t e = text.find('e');
  const bool negative = text[0] == '-';
  std::string digits;
  for (std::size_t i = negative ? 1 : 0; i < e; ++i)
    if (text[i] != '.') digits += text[i];
  const int exponent = std::atoi(text.c_str() + e + 1);
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    } else {
      const std::size_t point = static_cast<std::size_t>(exponent) + 1;
      if (digits.size() <= point) {
        out += digits + std::string(point - digits.size(), '0') + ".0";
      } else {
        out += digits.substr(0, point) + "." + digits.substr(point);
      }
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  out += fmt::format("e{}{:02}", exponent < 0 ? '-' : '+', std::abs(exponent));
  return out;
}

std::string python_number(const JsonValue& value) {
  const std::string& text = value.number_text;
  if (text.empty()) return python_float_repr(value.number);
  if (text.find_first_of(".eE") == std::string::npos) {
    // A Python int: its digits, without the sign of a negative zero.
    return text.find_first_not_of("-0") == std::string::npos ? "0" : text;
  }
  return python_float_repr(std::strtod(text.c_str(), nullptr));
}

void append_python_string(std::string& out, const std::string& utf8, bool ensure_ascii) {
  out += '"';
  for (std::size_t pos = 0; pos < utf8.size();) {
    const char32_t c = decode_utf8(utf8, pos);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      default:
        break;
    }
    if (c < 0x20 || (ensure_ascii && c > 0x7E)) {
      if (c > 0xFFFF) {
        const char32_t v = c - 0x10000;
        out += fmt::format("\\u{:04x}\\u{:04x}", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
      } else {
        out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
      }
      continue;
    }
    append_utf8(out, c);
  }
  out += '"';
}

void dumps(std::string& out, const JsonValue& value, bool ensure_ascii, bool indented, int level) {
  const std::string item_separator = indented ? "," : ", ";
  auto newline = [&](int depth) {
    if (indented) out += "\n" + std::string(static_cast<std::size_t>(2 * depth), ' ');
  };
  switch (value.kind) {
    case JsonValue::Kind::kNull:
      out += "null";
      return;
    case JsonValue::Kind::kBool:
      out += value.boolean ? "true" : "false";
      return;
    case JsonValue::Kind::kNumber:
      out += python_number(value);
      return;
    case JsonValue::Kind::kString:
      append_python_string(out, value.string, ensure_ascii);
      return;
    case JsonValue::Kind::kArray:
      out += '[';
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        if (i) out += item_separator;
        newline(level + 1);
        dumps(out, value.items[i], ensure_ascii, indented, level + 1);
      }
      if (!value.items.empty()) newline(level);
      out += ']';
      return;
    case JsonValue::Kind::kObject:
      out += '{';
      for (std::size_t i = 0; i < value.members.size(); ++i) {
        if (i) out += item_separator;
        newline(level + 1);
        append_python_string(out, value.members[i].first, ensure_ascii);
        out += ": ";
        dumps(out, value.members[i].second, ensure_ascii, indented, level + 1);
      }
      if (!value.members.empty()) newline(level);
      out += '}';
      return;
  }
}

// The message without the place it names ("s.json#/a/b: ") and with quoted values elided, so
// refusals of one kind count together.
std::string reason_key(const std::string& message) {
  std::string text = message;
  const std::size_t place = text.find("#");
  if (place != std::string::npos) {
    const std::size_t colon = text.find(": ", place);
    if (colon != std::string::npos) text = text.substr(colon + 2);
  }
  static const std::regex kKeyword(R"re(keyword "([^"]*)" is not supported)re");
  std::smatch match;
  if (std::regex_search(text, match, kKeyword)) return "keyword " + match[1].str();
  static const std::regex kQuoted(R"re("[^"]*")re");
  text = std::regex_replace(text, kQuoted, "\"…\"");
  static const std::regex kNumbers(R"([0-9]+)");
  text = std::regex_replace(text, kNumbers, "N");
  const std::size_t cut = text.find(" (--json-schema-lenient");
  if (cut != std::string::npos) text = text.substr(0, cut);
  if (text.size() > 90) text = text.substr(0, 90) + "…";
  return text;
}

bool unsatisfiable(const std::string& message) {
  return message.find("no JSON value satisfies the schema") != std::string::npos ||
         message.find("derives no text the lexer can produce") != std::string::npos;
}

}  // namespace

const std::vector<SuiteSpelling>& suite_spellings() {
  static const std::vector<SuiteSpelling> kSpellings = {
      {"ascii", true, false},
      {"unicode", false, false},
      {"indented ascii", true, true},
      {"indented unicode", false, true},
  };
  return kSpellings;
}

std::string python_json_dumps(const JsonValue& value, bool ensure_ascii, bool indented) {
  std::string out;
  dumps(out, value, ensure_ascii, indented, 0);
  return out;
}

const std::vector<std::string>& suite_drafts() {
  static const std::vector<std::string> kDrafts = {"draft4", "draft6", "draft7", "draft2019-09",
                                                   "draft2020-12"};
  return kDrafts;
}

const std::vector<std::string>& suite_optional_files() {
  static const std::vector<std::string> kFiles = {"bignum", "ecmascript-regex", "non-bmp-regex",
                                                  "float-overflow"};
  return kFiles;
}

json_schema::Draft draft_of_folder(const std::string& folder) {
  if (folder == "draft4") return json_schema::Draft::k4;
  if (folder == "draft6") return json_schema::Draft::k6;
  if (folder == "draft7") return json_schema::Draft::k7;
  if (folder == "draft2019-09") return json_schema::Draft::k2019_09;
  return json_schema::Draft::k2020_12;
}

namespace {

std::vector<std::filesystem::path> json_files_in(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(folder)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<SuiteGroup> read_groups(const std::filesystem::path& tests, const std::string& draft,
                                    const std::vector<std::filesystem::path>& files) {
  std::vector<SuiteGroup> groups;
  for (const std::filesystem::path& path : files) {
    const std::string relative = std::filesystem::relative(path, tests).generic_string();
    const JsonValue document = json_schema::parse_json(read_text_file(path), relative);
    // draft7/optional/bignum.json -> optional/bignum; .../optional/format/ipv6.json ->
    // optional/format/ipv6.
    const std::string keyword =
        std::filesystem::relative(path, tests / draft).replace_extension().generic_string();
    for (const JsonValue& item : document.items) {
      SuiteGroup group;
      group.draft = draft;
      group.file = relative;
      group.keyword = keyword;
      if (const JsonValue* d = item.find("description")) group.description = d->string;
      group.schema = *item.find("schema");
      for (const JsonValue& test : item.find("tests")->items) {
        SuiteTest t;
        if (const JsonValue* d = test.find("description")) t.description = d->string;
        t.data = *test.find("data");
        t.valid = test.find("valid")->boolean;
        group.tests.push_back(std::move(t));
      }
      groups.push_back(std::move(group));
    }
  }
  return groups;
}

}  // namespace

std::vector<SuiteGroup> load_suite_groups(const std::filesystem::path& suite_dir,
                                          const std::string& draft) {
  const std::filesystem::path tests = suite_dir / "tests";
  std::vector<std::filesystem::path> files = json_files_in(tests / draft);
  if (files.empty()) throw Error("no test files in " + (tests / draft).string(), ErrorCode::kIo);
  for (const std::string& name : suite_optional_files()) {
    const std::filesystem::path path = tests / draft / "optional" / (name + ".json");
    if (std::filesystem::exists(path)) files.push_back(path);
  }
  return read_groups(tests, draft, files);
}

std::string suite_group_format(const SuiteGroup& group) {
  if (const JsonValue* format = group.schema.find("format"); format && format->is_string())
    return format->string;
  return group.keyword.substr(group.keyword.rfind('/') + 1);
}

std::vector<SuiteGroup> load_format_groups(const std::filesystem::path& suite_dir,
                                           const std::string& draft) {
  const std::filesystem::path tests = suite_dir / "tests";
  return read_groups(tests, draft, json_files_in(tests / draft / "optional" / "format"));
}

std::vector<json_schema::RegisteredDocument> load_suite_remotes(
    const std::filesystem::path& suite_dir) {
  std::vector<json_schema::RegisteredDocument> documents;
  const std::filesystem::path remotes = suite_dir / "remotes";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(remotes))
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      documents.push_back({"http://localhost:1234/" +
                               std::filesystem::relative(entry.path(), remotes).generic_string(),
                           read_text_file(entry.path())});
  std::sort(documents.begin(), documents.end(),
            [](const auto& a, const auto& b) { return a.uri < b.uri; });
  return documents;
}

GroupOutcome run_suite_group(const SuiteGroup& group, const SuiteRunOptions& options) {
  GroupOutcome outcome;
  json_schema::SchemaOptions schema_options;
  schema_options.property_order = options.property_order;
  schema_options.default_draft = draft_of_folder(group.draft);
  // format.json of 2019-09 and later tests the specification's default, format as an
  // annotation ("an invalid date string is only an annotation by default").
  schema_options.assert_format =
      options.assert_format &&
      !(group.keyword == "format" && schema_options.default_draft >= json_schema::Draft::k2019_09);
  schema_options.documents = options.remotes;
  const std::string name = group.file;
  std::shared_ptr<const glr::CompiledGrammar> compact, flexible;
  try {
    compact = glr::CompiledGrammar::compile(
        json_schema::compile_json_schema(group.schema, name, schema_options));
    schema_options.whitespace = json_schema::Whitespace::kFlexible;
    flexible = glr::CompiledGrammar::compile(
        json_schema::compile_json_schema(group.schema, name, schema_options));
  } catch (const Error& e) {
    outcome.reason = e.what();
    outcome.reason_key = reason_key(outcome.reason);
    bool any_valid = false;
    for (const SuiteTest& test : group.tests) any_valid = any_valid || test.valid;
    outcome.status = unsatisfiable(outcome.reason) && !any_valid ? GroupStatus::kCorrectlyRefused
                                                                 : GroupStatus::kRefused;
    return outcome;
  }
  outcome.status = GroupStatus::kCompiled;
  outcome.grammar = compact;
  outcome.flexible_grammar = flexible;
  for (const SuiteTest& test : group.tests) {
    std::vector<bool>& row = outcome.accepted.emplace_back();
    for (const SuiteSpelling& spelling : suite_spellings()) {
      const std::string text =
          python_json_dumps(test.data, spelling.ensure_ascii, spelling.indented);
      bool accepted = false;
      try {
        glr::Session session(spelling.indented ? flexible : compact);
        accepted = session.try_commit_bytes(text) && session.is_accepting();
      } catch (const Error&) {
        accepted = false;  // a session limit: refused
      }
      row.push_back(accepted);
      if (test.valid)
        ++(accepted ? outcome.valid_accepted : outcome.valid_refused);
      else
        ++(accepted ? outcome.invalid_accepted : outcome.invalid_refused);
    }
  }
  return outcome;
}

}  // namespace glrmask::experiments
