// `glrmask check`: is each file a sentence of the grammar? Prints one line per file; a rejected
// file names the first byte offset at which its text stopped being a prefix of any sentence.
#include <fmt/format.h>

#include "api/src/limits_internal.h"
#include "apps/args.h"
#include "apps/commands.h"
#include "apps/grammar_options.h"
#include "apps/input_file.h"
#include "apps/limit_options.h"
#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"

namespace glrmask::app {

int run_check(const CommandArgs& argv) {
  CommandArgs rest = argv;
  glr::ParseOptions options = take_grammar_options(rest);
  const GrammarSource source = take_grammar_source(rest);
  const Limits limits = take_limit_options(rest);
  Args args(rest, {}, {"quiet"});
  const std::size_t first_file = source.needs_path() ? 1 : 0;
  if (args.positional().size() < first_file + 1)
    throw Error(
        "expected a grammar and at least one file; usage: glrmask check GRAMMAR FILE... "
        "[--max-... N: budgets, docs/limits.md]",
        ErrorCode::kInvalidArgument);
  options.lexer_limits = lexer_limits(limits);
  options.max_lookahead_bytes = limits.max_compile_memory_mib << 20;
  auto grammar = compile_grammar(source, first_file ? args.positional()[0] : "", options);
  const auto recognizer =
      std::make_shared<const glr::IncrementalRecognizer>(grammar, parser_limits(limits));
  const glr::SessionOptions session_options_ = session_options(limits, 0);

  std::size_t rejected = 0;
  for (std::size_t i = first_file; i < args.positional().size(); ++i) {
    const std::string& file = args.positional()[i];
    std::string text = read_input_file(file);
    glr::Session session(recognizer, nullptr, session_options_);
    std::string verdict = "accepted";
    try {
      session.commit_bytes(text);
      if (!session.is_accepting())
        throw Error(
            fmt::format("byte offset {}: the text ends before a complete sentence", text.size()),
            ErrorCode::kRejected);
    } catch (const Error& e) {
      ++rejected;
      // A budget is not a verdict on the text: say which one stopped the check.
      verdict = fmt::format("{}: {}", e.code() == ErrorCode::kLimit ? "not decided" : "rejected",
                            e.what());
    }
    if (!args.flag("quiet") || verdict != "accepted") fmt::print("{}: {}\n", file, verdict);
  }
  const std::size_t files = args.positional().size() - first_file;
  if (files > 1) fmt::print("{} of {} accepted\n", files - rejected, files);
  return rejected == 0 ? 0 : 1;
}

}  // namespace glrmask::app
