// glrmask schema2lark: a JSON Schema as the Lark grammar glrmask compiles it to. The output reads
// back with glrmask's Lark loader and with Lark itself (tests/apps/schema_reference_test.cpp).
#include <fmt/format.h>

#include <cstdio>
#include <string_view>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/grammar_options.h"
#include "lib/json_schema/compiler.h"
#include "lib/lark/lark_writer.h"

namespace glrmask::app {

int run_schema2lark(const CommandArgs& argv) {
  constexpr std::string_view kSchema2larkUsage =
      "glrmask schema2lark FILE [--json-whitespace default|compact|flexible] "
      "[--json-schema-lenient] [--json-property-order schema|any] "
      "[--json-schema-draft 4|6|7|2019-09|2020-12] [--json-format assert|annotation] "
      "[--json-schema-ref URI=FILE]...";
  // The schema is the positional FILE; the JSON options are the shared ones, which need a JSON
  // source, so the source is named before they are read.
  CommandArgs rest = {"--json-schema", "FILE"};
  rest.insert(rest.end(), argv.begin(), argv.end());
  GrammarSource source = take_grammar_source(rest);
  Args args(rest, {}, {});
  args.expect_positional(1, 1, kSchema2larkUsage);
  source.value = args.positional()[0];
  const GrammarModel grammar = load_grammar(source, "");
  for (const Diagnostic& warning : grammar.warnings()) fmt::print(stderr, "{}\n", warning.str());
  fmt::print("{}", to_lark_text(grammar));
  return 0;
}

}  // namespace glrmask::app
