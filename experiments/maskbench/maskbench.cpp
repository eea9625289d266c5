// The MaskBench evaluation of the JSON Schema compiler (docs/json_schema.md): for every schema
// of the maskbench-dev set, compile it (timed), then teacher-force each instance, serialized as
// MaskBench does (Python json.dumps, separators ", " and ": ", non-ASCII kept), with the Llama-3
// tokenizer through a matcher of the library (glrmask::Matcher), whose acceptance is exact (the
// oracle's mask membership):
//  - a valid instance passes when every token is accepted and EOS is allowed at its end;
//  - an invalid instance passes when some token is refused or EOS is refused at the end.
// Writes per-schema CSV, and a Markdown report with pass rates per category (the layout of PSC's
// Table 2) and every failing schema with its reason, into --out.
//
//   maskbench [--data DIR] [--out DIR] [--tokenizer NAME] [--whitespace default|compact|flexible]
//             [--lenient] [--property-order schema|any] [--limit N] [--wfa]
// With --wfa every compiled schema is also compiled for the wfa engine (timed), and every
// instance is teacher-forced through its masks as well, with the library's teacher-forcing loop
// (harness/teacher_forcing.h): the real next token must be in the mask exactly when the matcher
// accepts it, and EOS at the end exactly when the text is complete. Disagreements are counted per
// schema (they would be engine bugs); get_mask latencies are pooled.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "experiments/support/result_table.h"
#include "glrmask/glrmask.hpp"
#include "harness/teacher_forcing.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/settings.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/document.h"
#include "lib/json_schema/ecma_regex.h"
#include "lib/json_schema/merge.h"
#include "lib/json_schema/value.h"

namespace glrmask {
namespace {

using json_schema::JsonValue;

struct Options {
  std::filesystem::path data;
  std::filesystem::path out = "experiments/results/maskbench";
  std::string tokenizer = "llama3";
  JsonOptions json;
  std::size_t limit = 0;
  bool wfa = false;
};

struct SchemaResult {
  std::string id;
  std::string category;
  double compile_ms = 0;
  bool compiled = false;
  std::size_t valid = 0, valid_passed = 0, invalid = 0, invalid_passed = 0;
  // Valid instances refused as written but accepted once their object members are put in
  // schema order: what the property-order policy costs.
  std::size_t valid_order_only = 0;
  std::string reason;  // the first failure
  double wfa_compile_ms = 0;
  std::size_t wfa_disagreements = 0;  // instances where the wfa masks and the session differ
};

// Teacher-forces `text` through the wfa's masks and counts a disagreement when the mask's verdict
// on a token (or on EOS at the end) differs from the matcher's. Appends each mask time.
std::size_t force_with_wfa(const Constraint& wfa, const std::string& text,
                           std::vector<double>& mask_us) {
  Matcher matcher(wfa);
  const std::vector<std::int32_t> ids = wfa.tokenizer().encode(text);
  TeacherForcingOptions forcing;
  forcing.mask_call = MaskCall::kFill;
  const ForcedRun run = teacher_force(matcher, ids, forcing);
  for (const std::chrono::nanoseconds time : run.mask_times)
    mask_us.push_back(std::chrono::duration<double, std::micro>(time).count());
  if (!run.failure) return 0;
  // Allowed but refused: a disagreement. Masked: one unless the matcher refuses it too (an
  // invalid instance ends there).
  if (!run.failure->masked) return 1;
  return matcher.accept_token(run.failure->token) ? 1 : 0;
}

// Teacher forcing. Returns an empty string when the text is accepted with EOS allowed at the end,
// otherwise why not.
std::string force(const Constraint& constraint, const std::string& text) {
  Matcher matcher(constraint);
  const std::vector<std::int32_t> ids = constraint.tokenizer().encode(text);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    try {
      matcher.commit_token(ids[i]);
    } catch (const Error& e) {
      return fmt::format("token {} of {} refused: {}", i, ids.size(), e.what());
    }
  }
  if (!matcher.is_accepting()) return "EOS refused at the end";
  return "";
}

// The instance with every object's members in the order of its schema's `properties` (members
// the schema does not declare keep their relative order, after the declared ones). anyOf /
// oneOf: the branch declaring most of the object's keys. Best effort; used only to measure.
JsonValue schema_order(const json_schema::SchemaDocument& document, const JsonValue& value,
                       const JsonValue& schema, int depth) {
  if (depth > 64) return value;
  JsonValue flat;
  try {
    flat = json_schema::flatten_conjunction(document, schema, "");
  } catch (const Error&) {
    return value;
  }
  if (!flat.is_object()) return value;
  for (const char* keyword : {"anyOf", "oneOf"}) {
    const JsonValue* branches = flat.find(keyword);
    if (!branches || !value.is_object()) continue;
    JsonValue best;
    std::size_t best_hits = 0;
    for (const JsonValue& branch : branches->items) {
      JsonValue both;
      both.kind = JsonValue::Kind::kObject;
      JsonValue list;
      list.kind = JsonValue::Kind::kArray;
      JsonValue base = flat;
      std::erase_if(base.members,
                    [](const auto& m) { return m.first == "anyOf" || m.first == "oneOf"; });
      list.items = {base, branch};
      both.members.emplace_back("allOf", list);
      JsonValue merged;
      try {
        merged = json_schema::flatten_conjunction(document, both, "");
      } catch (const Error&) {
        continue;
      }
      const JsonValue* properties = merged.find("properties");
      std::size_t hits = 0;
      for (const auto& member : value.members) hits += properties && properties->find(member.first);
      if (hits > best_hits || best.kind == JsonValue::Kind::kNull) {
        best_hits = hits;
        best = merged;
      }
    }
    if (best.is_object()) flat = best;
  }
  JsonValue out = value;
  if (value.is_object()) {
    out.members.clear();
    const JsonValue* properties = flat.find("properties");
    const JsonValue* additional = flat.find("additionalProperties");
    if (properties && properties->is_object()) {
      for (const auto& [name, property] : properties->members)
        if (const JsonValue* member = value.find(name))
          out.members.emplace_back(name, schema_order(document, *member, property, depth + 1));
    }
    const JsonValue* patterns = flat.find("patternProperties");
    for (const auto& [name, member] : value.members) {
      if (properties && properties->find(name)) continue;
      const JsonValue* member_schema = additional && additional->is_object() ? additional : nullptr;
      if (patterns && patterns->is_object()) {
        for (const auto& [pattern, pattern_schema] : patterns->members) {
          try {
            if (json_schema::ecma_search(pattern, name, "")) member_schema = &pattern_schema;
          } catch (const Error&) {
          }
        }
      }
      out.members.emplace_back(
          name, member_schema ? schema_order(document, member, *member_schema, depth + 1) : member);
    }
  } else if (value.is_array()) {
    const JsonValue* items = flat.find("items");
    if (items && items->is_object())
      for (JsonValue& item : out.items) item = schema_order(document, item, *items, depth + 1);
  }
  return out;
}

// The first failure's reason as a Markdown cell shows at most this many bytes.
constexpr std::size_t kMaxReasonCellBytes = 300;

std::string shortened(const std::string& text, std::size_t max_bytes) {
  return text.size() > max_bytes ? text.substr(0, max_bytes) + "..." : text;
}

JsonWhitespace json_whitespace(const std::string& name) {
  switch (json_schema::parse_whitespace(name)) {
    case json_schema::Whitespace::kCompact:
      return JsonWhitespace::kCompact;
    case json_schema::Whitespace::kFlexible:
      return JsonWhitespace::kFlexible;
    case json_schema::Whitespace::kDefault:
      break;
  }
  return JsonWhitespace::kDefault;
}

JsonPropertyOrder json_property_order(const std::string& name) {
  return json_schema::parse_property_order(name) == json_schema::PropertyOrder::kAny
             ? JsonPropertyOrder::kAny
             : JsonPropertyOrder::kSchema;
}

double percent(std::size_t a, std::size_t b) {
  return b ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

int run(const Options& options) {
  const Tokenizer tokenizer = Tokenizer::load(options.tokenizer);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(options.data))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (options.limit && files.size() > options.limit) files.resize(options.limit);

  const bool compact = options.json.whitespace == JsonWhitespace::kCompact;
  std::vector<SchemaResult> results;
  std::vector<double> wfa_compile_ms, wfa_mask_us;
  std::size_t wfa_disagreements = 0, wfa_refused = 0;
  for (const auto& file : files) {
    SchemaResult result;
    result.id = file.stem().string();
    result.category = result.id.substr(0, result.id.find("---"));
    const JsonValue document = json_schema::parse_json(read_text_file(file), file.string());
    const JsonValue* schema = document.find("schema");
    const JsonValue* valid = document.find("valid");
    const JsonValue* invalid = document.find("invalid");
    if (!schema || !valid || !invalid)
      throw Error(fmt::format("{}: not a maskbench-dev file", file.string()),
                  glrmask::ErrorCode::kInvalidArgument);
    result.valid = valid->items.size();
    result.invalid = invalid->items.size();
    // The verdicts need no engine built ahead (the oracle's is nothing).
    std::optional<Constraint> grammar;
    const std::string schema_text = json_schema::to_json_text(*schema);
    const auto start = std::chrono::steady_clock::now();
    try {
      grammar = Constraint::from_json_schema(schema_text, tokenizer, options.json,
                                             {.engine = Engine::kOracle}, result.id);
      result.compiled = true;
    } catch (const Error& e) {
      result.reason = fmt::format("not compiled: {}", e.what());
    }
    result.compile_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (grammar && options.wfa) {
      try {
        const Constraint wfa = Constraint::from_json_schema(schema_text, tokenizer, options.json,
                                                            {.engine = Engine::kWfa}, result.id);
        // The automata's build alone, as before: not the grammar's compile again.
        result.wfa_compile_ms = 1000 * wfa.statistics().engine_seconds;
        wfa_compile_ms.push_back(result.wfa_compile_ms);
        for (const JsonValue* list : {valid, invalid})
          for (const JsonValue& instance : list->items)
            result.wfa_disagreements +=
                force_with_wfa(wfa,
                               compact ? json_schema::to_json_text(instance, ",", ":")
                                       : json_schema::to_json_text(instance),
                               wfa_mask_us);
      } catch (const Error& e) {
        ++wfa_refused;
        if (result.reason.empty()) result.reason = fmt::format("wfa: {}", e.what());
      }
      wfa_disagreements += result.wfa_disagreements;
    }
    if (grammar) {
      for (std::size_t i = 0; i < valid->items.size(); ++i) {
        const std::string text = compact ? json_schema::to_json_text(valid->items[i], ",", ":")
                                         : json_schema::to_json_text(valid->items[i]);
        const std::string why = force(*grammar, text);
        if (why.empty()) {
          ++result.valid_passed;
          continue;
        }
        const json_schema::SchemaDocument schema_document(*schema, result.id);
        const JsonValue ordered = schema_order(schema_document, valid->items[i], *schema, 0);
        const std::string ordered_text = compact ? json_schema::to_json_text(ordered, ",", ":")
                                                 : json_schema::to_json_text(ordered);
        const bool order_only = force(*grammar, ordered_text).empty();
        result.valid_order_only += order_only;
        if (result.reason.empty())
          result.reason = fmt::format("valid #{} rejected{}: {}", i,
                                      order_only ? " (accepted in schema order)" : "", why);
      }
      for (std::size_t i = 0; i < invalid->items.size(); ++i) {
        const std::string text = compact ? json_schema::to_json_text(invalid->items[i], ",", ":")
                                         : json_schema::to_json_text(invalid->items[i]);
        if (!force(*grammar, text).empty())
          ++result.invalid_passed;
        else if (result.reason.empty())
          result.reason = fmt::format("invalid #{} accepted: {}", i, text);
      }
    }
    if (options.wfa)
      fmt::print("{:<55} wfa compile {:>9.1f} ms  disagreements {}\n", result.id,
                 result.wfa_compile_ms, result.wfa_disagreements);
    fmt::print("{:<55} {:>9.1f} ms  valid {}/{}  invalid {}/{}  {}\n", result.id, result.compile_ms,
               result.valid_passed, result.valid, result.invalid_passed, result.invalid,
               result.reason.substr(0, 160));
    std::fflush(stdout);
    results.push_back(std::move(result));
  }

  std::filesystem::create_directories(options.out);
  using experiments::format_fixed;
  experiments::ResultTable per_schema({"schema", "category", "compiled", "compile_ms", "valid",
                                       "valid_passed", "valid_order_only", "invalid",
                                       "invalid_passed", "reason"});
  for (const SchemaResult& r : results)
    per_schema.add_row({r.id, r.category, r.compiled ? "1" : "0", format_fixed(r.compile_ms, 2),
                        std::to_string(r.valid), std::to_string(r.valid_passed),
                        std::to_string(r.valid_order_only), std::to_string(r.invalid),
                        std::to_string(r.invalid_passed), r.reason});
  std::ofstream(options.out / "maskbench.csv") << per_schema.to_csv();

  struct Totals {
    std::size_t schemas = 0, compiled = 0, valid = 0, valid_passed = 0, invalid = 0,
                invalid_passed = 0, valid_order_only = 0;
    std::vector<double> compile_ms;
  };
  std::map<std::string, Totals> by_category;
  Totals total;
  for (const SchemaResult& r : results) {
    for (Totals* t : {&by_category[r.category], &total}) {
      ++t->schemas;
      t->compiled += r.compiled;
      t->valid += r.valid;
      t->valid_passed += r.valid_passed;
      t->valid_order_only += r.valid_order_only;
      t->invalid += r.invalid;
      t->invalid_passed += r.invalid_passed;
      if (r.compiled) t->compile_ms.push_back(r.compile_ms);
    }
  }
  auto median = [](std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  };
  std::ofstream md(options.out / "maskbench.md");
  md << fmt::format(
      "# MaskBench dev: JSON Schema compiler pass rates\n\n"
      "Tokenizer {}, whitespace {}, {} mode. A valid instance passes when every "
      "token is accepted and EOS is allowed at its end; an invalid one when some "
      "token or EOS is refused. Schemas that do not compile count as failures for "
      "all their instances.\n\n",
      options.tokenizer,
      compact ? "compact"
              : (options.json.whitespace == JsonWhitespace::kFlexible ? "flexible" : "default"),
      options.json.lenient ? "lenient" : "strict");
  experiments::ResultTable by_category_table({"category", "schemas", "compiled", "valid passed",
                                              "invalid passed", "all instances",
                                              "median compile (ms)"});
  by_category_table.align_right({1, 2, 3, 4, 5, 6});
  auto add_totals = [&](const std::string& name, const Totals& t) {
    by_category_table.add_row(
        {name, std::to_string(t.schemas), std::to_string(t.compiled),
         fmt::format("{}/{} ({:.1f}%)", t.valid_passed, t.valid, percent(t.valid_passed, t.valid)),
         fmt::format("{}/{} ({:.1f}%)", t.invalid_passed, t.invalid,
                     percent(t.invalid_passed, t.invalid)),
         fmt::format("{:.1f}%", percent(t.valid_passed + t.invalid_passed, t.valid + t.invalid)),
         format_fixed(median(t.compile_ms), 1)});
  };
  for (const auto& [name, t] : by_category) add_totals(name, t);
  add_totals("**total**", total);
  md << by_category_table.to_markdown();
  md << fmt::format(
      "\nValid instances refused only because their members are not in schema "
      "order (accepted once reordered): {} of {}.\n",
      total.valid_order_only, total.valid);
  if (options.wfa) {
    std::vector<double> sorted = wfa_mask_us;
    std::sort(sorted.begin(), sorted.end());
    auto at = [&](double q) {
      return sorted.empty()
                 ? 0.0
                 : sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(
                                                          q * static_cast<double>(sorted.size())))];
    };
    double sum = 0;
    for (const double us : sorted) sum += us;
    experiments::ResultTable wfa_table(
        {"schemas compiled for wfa", "refused by wfa", "disagreements", "median wfa compile (ms)",
         "get_mask calls", "mean (µs)", "p50", "p99", "p99.9", "max"});
    wfa_table.align_right({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    wfa_table.add_row(
        {std::to_string(wfa_compile_ms.size()), std::to_string(wfa_refused),
         std::to_string(wfa_disagreements), format_fixed(median(wfa_compile_ms), 1),
         std::to_string(sorted.size()),
         format_fixed(sorted.empty() ? 0.0 : sum / static_cast<double>(sorted.size()), 2),
         format_fixed(at(0.5), 2), format_fixed(at(0.99), 2), format_fixed(at(0.999), 2),
         format_fixed(sorted.empty() ? 0.0 : sorted.back(), 2)});
    md << "\n## The wfa engine on the compiled schemas\n\n"
          "Every instance teacher-forced through the wfa masks next to a session; a disagreement "
          "is a token (or EOS) the mask and the session judge differently.\n\n"
       << wfa_table.to_markdown();
    fmt::print(
        "wfa: {} schemas compiled ({} refused), {} disagreements, median compile {:.1f} ms, "
        "get_mask mean {:.2f} us over {} calls\n",
        wfa_compile_ms.size(), wfa_refused, wfa_disagreements, median(wfa_compile_ms),
        sorted.empty() ? 0.0 : sum / static_cast<double>(sorted.size()), sorted.size());
  }
  experiments::ResultTable failing({"schema", "compile (ms)", "valid", "invalid", "first reason"});
  failing.align_right({1, 2, 3});
  for (const SchemaResult& r : results) {
    if (r.compiled && r.valid_passed == r.valid && r.invalid_passed == r.invalid) continue;
    failing.add_row({r.id, format_fixed(r.compile_ms, 1),
                     fmt::format("{}/{}", r.valid_passed, r.valid),
                     fmt::format("{}/{}", r.invalid_passed, r.invalid),
                     shortened(r.reason, kMaxReasonCellBytes)});
  }
  md << "\n## Failing schemas\n\n" << failing.to_markdown();
  fmt::print(
      "\ntotal: {} schemas, {} compiled, valid {}/{}, invalid {}/{}, median compile {:.1f} "
      "ms; wrote {}\n",
      total.schemas, total.compiled, total.valid_passed, total.valid, total.invalid_passed,
      total.invalid, median(total.compile_ms), (options.out / "maskbench.md").string());
  return 0;
}

}  // namespace
}  // namespace glrmask

int main(int argc, char** argv) {
  glrmask::Options options;
  options.data = glrmask::data_dir() / "jsonschema" / "maskbench-dev";
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      auto next = [&]() -> std::string {
        if (i + 1 >= argc)
          throw glrmask::Error(fmt::format("option {} needs a value", arg),
                               glrmask::ErrorCode::kInvalidArgument);
        return argv[++i];
      };
      if (arg == "--data")
        options.data = next();
      else if (arg == "--out")
        options.out = next();
      else if (arg == "--tokenizer")
        options.tokenizer = next();
      else if (arg == "--whitespace")
        options.json.whitespace = glrmask::json_whitespace(next());
      else if (arg == "--lenient")
        options.json.lenient = true;
      else if (arg == "--property-order")
        options.json.property_order = glrmask::json_property_order(next());
      else if (arg == "--limit")
        options.limit = std::stoul(next());
      else if (arg == "--wfa")
        options.wfa = true;
      else
        throw glrmask::Error(fmt::format("unknown option {}", arg),
                             glrmask::ErrorCode::kInvalidArgument);
    }
    return glrmask::run(options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "maskbench: {}\n", e.what());
    return 2;
  }
}
