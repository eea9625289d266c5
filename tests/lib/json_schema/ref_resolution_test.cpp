// Reference resolution (lib/json_schema/references.h, uri.h; the file name avoids "reference",
// which would make it a reference-comparison test): RFC 3986's resolution examples,
// then schemas whose references name their targets by `$id`, `$anchor`, draft 7's `$id: "#name"`,
// registered documents and `$dynamicRef`, each checked by the verdicts of the compiled grammar on
// instances inside and outside it (the JSON Schema semantics of each case is stated beside it).
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/uri.h"

using namespace glrmask;
using json_schema::resolve_uri;

namespace {

void check_ref_verdicts(const std::string& schema,
                        const std::vector<std::pair<std::string, bool>>& verdicts,
                        const json_schema::SchemaOptions& options = {}) {
  const auto grammar = glr::CompiledGrammar::compile(
      json_schema::compile_json_schema_text(schema, "s.json", options));
  for (const auto& [instance, valid] : verdicts) {
    glr::Session session(grammar);
    const bool accepted = session.try_commit_bytes(instance) && session.is_accepting();
    INFO(schema << "\n  instance " << instance);
    CHECK(accepted == valid);
  }
}

std::string ref_compile_error(const std::string& schema,
                              const json_schema::SchemaOptions& options) {
  try {
    json_schema::compile_json_schema_text(schema, "s.json", options);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("URI references resolve as RFC 3986 section 5.4 says") {
  const std::string base = "http://a/b/c/d;p?q";
  CHECK(resolve_uri(base, "g") == "http://a/b/c/g");
  CHECK(resolve_uri(base, "./g") == "http://a/b/c/g");
  CHECK(resolve_uri(base, "g/") == "http://a/b/c/g/");
  CHECK(resolve_uri(base, "/g") == "http://a/g");
  CHECK(resolve_uri(base, "//g") == "http://g");
  CHECK(resolve_uri(base, "?y") == "http://a/b/c/d;p?y");
  CHECK(resolve_uri(base, "#s") == "http://a/b/c/d;p?q#s");
  CHECK(resolve_uri(base, "") == "http://a/b/c/d;p?q");
  CHECK(resolve_uri(base, "..") == "http://a/b/");
  CHECK(resolve_uri(base, "../..") == "http://a/");
  CHECK(resolve_uri(base, "../../../g") == "http://a/g");
  CHECK(resolve_uri(base, "g;x=1/../y") == "http://a/b/c/y");
  CHECK(resolve_uri(base, "g:h") == "g:h");
  CHECK(resolve_uri("urn:uuid:deadbeef", "#/$defs/a") == "urn:uuid:deadbeef#/$defs/a");
  CHECK(resolve_uri("", "#/a") == "#/a");
  CHECK(resolve_uri("", "./x/../y.json") == "y.json");
}

TEST_CASE("$id changes the base URI of the references below it") {
  // The inner "#/$defs/b" is resolved against the inner resource, whose b is a string.
  check_ref_verdicts(R"({"$id": "http://x.test/root.json",
                     "$defs": {"b": {"type": "integer"},
                               "inner": {"$id": "inner.json", "$defs": {"b": {"type": "string"}},
                                         "$ref": "#/$defs/b"}},
                     "properties": {"i": {"$ref": "inner.json"}, "r": {"$ref": "#/$defs/b"},
                                    "abs": {"$ref": "http://x.test/inner.json#/$defs/b"}}})",
                     {{R"({"i": "a"})", true},
                      {R"({"i": 1})", false},
                      {R"({"r": 1})", true},
                      {R"({"r": "a"})", false},
                      {R"({"abs": "a"})", true},
                      {R"({"abs": 1})", false}});
}

TEST_CASE("$anchor, draft 7's $id anchors, and identifiers that are not identifiers") {
  check_ref_verdicts(R"({"$defs": {"a": {"$anchor": "num", "type": "number"}},
                     "properties": {"x": {"$ref": "#num"}}})",
                     {{R"({"x": 1})", true}, {R"({"x": "1"})", false}});
  check_ref_verdicts(R"({"$schema": "http://json-schema.org/draft-07/schema#",
                     "definitions": {"a": {"$id": "#num", "type": "number"}},
                     "properties": {"x": {"$ref": "#num"}}})",
                     {{R"({"x": 1})", true}, {R"({"x": "1"})", false}});
  // An `$id` inside `enum` is data: the reference finds the real one.
  check_ref_verdicts(R"({"$defs": {"e": {"enum": [{"$id": "#/$defs/b", "type": "null"}]},
                               "b": {"$id": "https://x.test/b.json", "type": "string"}},
                     "$ref": "https://x.test/b.json"})",
                     {{R"("s")", true}, {"null", false}});
  // A property named $ref is a property, not a reference.
  check_ref_verdicts(R"({"properties": {"$ref": {"type": "string"}}})",
                     {{R"({"$ref": "a"})", true}, {R"({"$ref": 2})", false}});
  // Draft 7: the $id beside a $ref is ignored with the other siblings, so the reference resolves
  // against the root's base.
  check_ref_verdicts(R"({"$schema": "http://json-schema.org/draft-07/schema#",
                     "$id": "http://x.test/",
                     "definitions": {"a": {"type": "integer"},
                                     "b": {"$id": "http://x.test/b/", "definitions":
                                           {"a": {"type": "string"}}}},
                     "properties": {"p": {"$id": "http://x.test/b/", "$ref": "#/definitions/a"}}})",
                     {{R"({"p": 1})", true}, {R"({"p": "s"})", false}});
}

TEST_CASE("registered documents: relative references inside them, errors that name them") {
  json_schema::SchemaOptions options;
  options.documents = {
      {"http://r.test/tree.json",
       R"({"$defs": {"leaf": {"type": "integer"}}, "type": "array", "items": {"$ref": "#/$defs/leaf"}})"},
      {"http://r.test/broken.json", R"({"$ref": "missing.json"})"}};
  check_ref_verdicts(R"({"$ref": "http://r.test/tree.json"})",
                     {{"[1, 2]", true}, {R"(["a"])", false}}, options);
  CHECK_THAT(ref_compile_error(R"({"$ref": "http://r.test/broken.json"})", options),
             Catch::Matchers::Contains("http://r.test/broken.json#/$ref") &&
                 Catch::Matchers::Contains("\"http://r.test/missing.json\" is not registered"));
  CHECK_THAT(ref_compile_error(R"({"properties": {"a": {"$ref": "#nowhere"}}})", options),
             Catch::Matchers::Contains("s.json#/properties/a/$ref") &&
                 Catch::Matchers::Contains("no $anchor or $id names \"nowhere\""));
}

TEST_CASE("$dynamicRef resolves where the dynamic scope cannot change its target") {
  // The root bears the dynamic anchor: every evaluation starts there, so the generic list's
  // items are the root's strings.
  json_schema::SchemaOptions options;
  options.documents = {{"http://r.test/list.json",
                        R"({"$schema": "https://json-schema.org/draft/2020-12/schema",
                            "$dynamicAnchor": "item", "type": "array",
                            "items": {"$dynamicRef": "#item"}})"}};
  check_ref_verdicts(R"({"$id": "http://r.test/strings.json", "$dynamicAnchor": "item",
                     "anyOf": [{"type": "string"}, {"$ref": "list.json"}]})",
                     {{R"("a")", true}, {R"(["a", ["b"]])", true}, {"[1]", false}}, options);
}
