// `glrmask parse`: the parse forest of a text. Prints how many derivations the text has (exactly,
// or "infinite" for a cyclic grammar), the forest as Graphviz DOT or JSON, and up to N distinct
// trees in Lark's notation (docs/ambiguity.md).
#include <fmt/format.h>

#include <cstdio>
#include <set>
#include <string>
#include <string_view>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/grammar_options.h"
#include "apps/input_file.h"
#include "glr/analysis/derivation_tree.h"
#include "glr/analysis/forest_grammar.h"
#include "glr/analysis/forest_output.h"
#include "glr/analysis/forest_parser.h"
#include "glr/analysis/lark_tree.h"
#include "glr/compiled_grammar.h"
#include "lib/core/error.h"

namespace glrmask::app {
namespace {

constexpr std::string_view kParseUsage =
    "glrmask parse GRAMMAR FILE [--forest dot|json] [--trees N] [--shape lark|none] [--start S] "
    "[--policy glr|lark] [--skippable T,...]";

}  // namespace

int run_parse(const CommandArgs& argv) {
  CommandArgs rest = argv;
  const glr::ParseOptions options =
      take_grammar_options(rest, kStartOption | kPolicyOption | kSkippableOption);
  Args args(rest, {"forest", "trees", "shape"}, {});
  args.expect_positional(2, 2, kParseUsage);
  const std::string forest_format = args.value_or("forest", "");
  if (!forest_format.empty() && forest_format != "dot" && forest_format != "json")
    throw Error(fmt::format("option --forest: expected dot or json, got '{}'", forest_format),
                ErrorCode::kInvalidArgument);
  const std::string shape = args.value_or("shape", "lark");
  if (shape != "lark" && shape != "none")
    throw Error(fmt::format("option --shape: expected lark or none, got '{}'", shape),
                ErrorCode::kInvalidArgument);
  const std::size_t max_trees = args.count("trees", 0).value_or(0);

  const auto compiled = glr::CompiledGrammar::load_lark(args.positional()[0], options);
  const glr::ForestGrammar grammar(compiled);
  const std::string& file = args.positional()[1];
  const std::string text = read_input_file(file);
  glr::ForestParse parse;
  try {
    parse = glr::parse_forest(grammar, text);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", file, e.what()), e.code(), e.where());
  }
  auto token_text = [&](std::uint32_t token) {
    const lexer::Lexeme& t = parse.lexemes[token];
    return text.substr(t.begin, t.end - t.begin);
  };
  glr::ForestNaming naming{&grammar.lr_grammar(),
                           [&](glr::SymbolId s) { return grammar.describe_symbol(s); }, token_text};

  if (forest_format == "dot") {
    const std::string dot = glr::forest_dot(parse.forest, parse.root, naming);
    std::fwrite(dot.data(), 1, dot.size(), stdout);
    return 0;
  }
  if (forest_format == "json") {
    const std::string json =
        glr::forest_json(parse.forest, parse.root, naming, parse.derivations.str());
    std::fwrite(json.data(), 1, json.size(), stdout);
    return 0;
  }

  std::size_t symbol_nodes = 0;
  std::size_t packed_nodes = 0;
  std::size_t ambiguous_nodes = 0;
  for (const glr::ForestNodeId id : glr::reachable_nodes(parse.forest, parse.root)) {
    ++symbol_nodes;
    const std::size_t packed = parse.forest.packed_of(id).size();
    packed_nodes += packed;
    if (packed > 1) ++ambiguous_nodes;
  }
  fmt::print("lexemes: {}\n", parse.lexemes.size());
  fmt::print("derivations: {}\n", parse.derivations.str());
  fmt::print("forest: {} symbol nodes, {} packed nodes, {} ambiguous symbol nodes\n", symbol_nodes,
             packed_nodes, ambiguous_nodes);
  if (max_trees == 0) return 0;

  // Lark's shaping can make two derivations look alike; each printed tree is distinct.
  const bool lark = shape == "lark";
  std::set<std::string> printed;
  std::size_t shown = 0;
  std::size_t alike = 0;
  std::size_t listed = 0;
  // Enumerate a few more than asked, so that trees equal after shaping can be skipped.
  const std::size_t limit = max_trees * 4;
  for (const glr::TreeRef& tree : glr::enumerate_trees(parse.forest, parse.root, limit)) {
    ++listed;
    const std::string pretty = glr::lark_pretty(glr::shape_tree(*tree, grammar, token_text, lark));
    if (!printed.insert(pretty).second) {
      ++alike;
      continue;
    }
    fmt::print("\ntree {}\n{}", ++shown, pretty);
    if (shown == max_trees) break;
  }
  if (alike > 0)
    fmt::print(
        "\n({} of the first {} derivations looked like an earlier tree after Lark's "
        "shaping and were not printed)\n",
        alike, listed);
  if (parse.derivations.infinite)
    fmt::print(
        "\n(the text has infinitely many trees; listed are only trees that take each cycle "
        "of the forest at most once on a path)\n");
  return 0;
}

}  // namespace glrmask::app
