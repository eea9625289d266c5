// A grammar, as the front ends make it and before it is compiled against a tokenizer: what a
// Lark grammar, a JSON Schema, a regex or "any JSON" becomes, inspectable (its rules printed as
// Lark, the warnings of a lenient front end) and compiled any number of times, for any tokenizer,
// by Constraint::compile or a Compiler. A Grammar is a cheap handle to immutable data: copies
// share it, and any thread may use it.
//
// Every front end is a *format* of the library's source registry ("lark", "json_schema",
// "regex", "any_json"; grammar_formats() lists them): Grammar::from_source(format, text, ...)
// reaches each, and the typed constructors below are shorthands for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "glrmask/error.hpp"
#include "glrmask/export.hpp"

namespace glrmask {

// How the LR table's conflicts are treated.
enum class ConflictPolicy : std::uint8_t {
  kGlr,   // every conflict kept; the language is exactly the grammar's (the default)
  kLark,  // as Lark's LALR parser: shift wins shift/reduce, rule priority decides reduce/reduce
};

// A post-lexer between lexer and parser.
enum class PostLexer : std::uint8_t {
  kNone,
  kPython,  // Lark's Python indenter: _NL, _INDENT, _DEDENT, brackets (SynCode's Python grammar)
};

// Options of a grammar of rules (Lark; the command line's --start, --policy, --skippable,
// --postlex).
struct GrammarOptions {
  std::string start = "start";
  ConflictPolicy policy = ConflictPolicy::kGlr;
  // Terminals dropped where the parser cannot take them (SynCode's Go statement-end EOS).
  std::vector<std::string> skippable;
  PostLexer postlex = PostLexer::kNone;
};

// Whitespace a JSON constraint allows between tokens.
enum class JsonWhitespace : std::uint8_t {
  kDefault,   // Python json.dumps style: ", " and ": "
  kCompact,   // none
  kFlexible,  // any JSON whitespace, bounded runs
};

// The order an object's declared properties may come in.
enum class JsonPropertyOrder : std::uint8_t {
  kSchema,  // the order of the schema's `properties` (what most generators emit; smaller grammars)
  kAny,     // any order, each property at most once
};

// The JSON Schema draft a schema is read as when its root names none with `$schema`. Drafts 4 to 7
// ignore the keywords beside a `$ref` and name anchors with `$id: "#name"`; 2019-09 and 2020-12
// apply the keywords beside a `$ref` and name anchors with `$anchor`.
enum class JsonDraft : std::uint8_t { k4, k6, k7, k2019_09, k2020_12 };

// A document a schema's `$ref` may name by its URI (glrmask never fetches one).
struct JsonDocument {
  std::string uri;   // an absolute URI, e.g. "https://example.com/address.json"
  std::string text;  // the document's JSON text
};

struct JsonOptions {
  JsonWhitespace whitespace = JsonWhitespace::kDefault;
  // Keywords the compiler cannot enforce exactly are ignored (with a warning) instead of refused.
  bool lenient = false;
  JsonPropertyOrder property_order = JsonPropertyOrder::kSchema;
  // The draft of a schema whose root has no `$schema` (or one glrmask does not know).
  JsonDraft default_draft = JsonDraft::k2020_12;
  // `format` asserted: each format glrmask knows is enforced (what a constrained decoder wants).
  // False: `format` is an annotation and ignored, the specification's default from 2019-09 on.
  bool assert_format = true;
  // The documents a `$ref` may name, by URI; a reference to any other document is an error.
  std::vector<JsonDocument> documents = {};
};

// The options of every format; each format reads its own (a Lark grammar `grammar`, a JSON Schema
// and "any JSON" `json`, a regex neither).
struct SourceOptions {
  GrammarOptions grammar;
  JsonOptions json;
};

// Something a front end did not refuse but says about the grammar: a lenient JSON Schema's keyword
// it ignored, a rule no other rule reaches. The message names the place, as an Error's does.
struct Warning {
  std::string message;
  ErrorLocation where;
};

class GLRMASK_API Grammar {
 public:
  // `text` in `format` (one of grammar_formats()); `name` names it in messages (e.g. its file; a
  // format's own default when empty). Throws glrmask::Error: kInvalidArgument for an unknown
  // format, the format's own code for a refused text (kGrammar with file:line:col, kSchema with the
  // JSON pointer).
  static Grammar from_source(std::string_view format, std::string_view text,
                             const SourceOptions& options = {}, std::string_view name = {});
  // A grammar in Lark syntax (Lark 1.1.5: rules, terminals, %import common, %ignore, %declare).
  static Grammar from_lark(std::string_view text, const GrammarOptions& options = {},
                           std::string_view name = "<grammar>");
  static Grammar from_lark_file(const std::filesystem::path& path,
                                const GrammarOptions& options = {});
  // A JSON Schema (draft 4 to 2020-12; docs/json_schema.md lists the keywords).
  static Grammar from_json_schema(std::string_view schema, const JsonOptions& options = {},
                                  std::string_view name = "<schema>");
  // Any JSON value.
  static Grammar any_json(const JsonOptions& options = {});
  // The whole output matches `pattern` (Python `re` syntax, a full match).
  static Grammar from_regex(std::string_view pattern);

  // The format it was made from ("lark", "json_schema", ...) and the name given.
  const std::string& format() const;
  const std::string& name() const;
  // The grammar every engine compiles, as Lark text: plain BNF rules, the terminals as patterns.
  std::string to_lark() const;
  const std::vector<Warning>& warnings() const;
  std::size_t num_terminals() const;
  std::size_t num_nonterminals() const;
  std::size_t num_rules() const;
  // One line: the format, the name and the options ("json_schema person.json (whitespace
  // default)").
  std::string description() const;

  // glrmask's own tools reach the internals through these; the Impl type is not public.
  struct Impl;
  const Impl& impl() const { return *impl_; }
  static Grammar wrap(std::shared_ptr<const Impl> impl) { return Grammar(std::move(impl)); }

 private:
  explicit Grammar(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

// The formats Grammar::from_source takes, in the order the registry lists them.
GLRMASK_API std::vector<std::string> grammar_formats();

}  // namespace glrmask
