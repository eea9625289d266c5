// Fuzz target: a JSON Schema text through the schema compiler (JSON parse, $ref resolution,
// keywords to grammar rules), strict and lenient, then the grammar compile. Inputs above 4 KB
// are ignored (large valid schemas are a budget question, not a crash).
#include <cstddef>
#include <cstdint>

#include "glr/compiled_grammar.h"
#include "lib/json_schema/compiler.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const auto text = glrmask::fuzz::as_text(data, size);
  for (const bool lenient : {false, true}) {
    glrmask::fuzz::expect_clean([&] {
      glrmask::json_schema::SchemaOptions options;
      options.lenient = lenient;
      options.repetition_cap = 50;
      glrmask::GrammarModel grammar =
          glrmask::json_schema::compile_json_schema_text(text, "fuzz.json", options);
      glrmask::glr::CompiledGrammar::compile(std::move(grammar));
    });
  }
  return 0;
}
