// The teacher-forcing corpora: for each grammar, the grammar file, the options SynCode parses it
// with, and the real texts the grammar accepts (the data folder's programs/, MaskBench instances).
//
//   go      SynCode go_grammar.lark, --policy lark --skippable EOS; programs/go/parses.txt
//   java    java_grammar.lark, --policy lark; programs/java/parses.txt (mostly comment-free copies)
//   sql     sql_grammar.lark, --policy lark; the lines of programs/sql/queries.sql in parses.txt
//   json    json_grammar.lark, --policy lark; the valid object/array instances of
//           jsonschema/maskbench-dev, serialized as MaskBench does (Python json.dumps: ", " and
//           ": " separators, non-ASCII kept)
//   python  python_grammar.lark, --policy lark --postlex python (Lark's Indenter with SynCode's
//           settings, docs/indenter.md); programs/python/parses.txt. The wfa, spanner and
//           oracle engines serve it; the lazy and staged engines refuse a post-lexer.
//   python-rejected  the same grammar on the programs it rejects (not in parses.txt).
//
// Texts keep the listing's order, so "the first n programs" is the same set on every machine.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"

namespace glrmask::experiments {

struct CorpusText {
  std::string name;  // e.g. "cipher__caesar__caesar.go", "queries.sql:3"
  std::string text;
};

struct Corpus {
  std::string name;  // the grammar's short name (go, java, ...) or the grammar file's stem
  std::filesystem::path grammar_path;
  // The source format of the grammar file (a name of the source registry): "lark", or "gbnf"
  // for llama.cpp's grammars.
  std::string format = "lark";
  glr::ParseOptions options;
  std::vector<CorpusText> texts;
};

// The names load_named_corpus() knows, in the order studies list them.
const std::vector<std::string>& corpus_names();

// Reads at most `max_texts` texts (0: all) of the named corpus from data_dir(). Throws
// glrmask::Error naming the file for an unknown name, a missing data folder or unreadable data.
Corpus load_named_corpus(const std::string& name, std::size_t max_texts);

// A user's grammar with its input files (default ParseOptions); a `.gbnf` file is read as GBNF.
Corpus corpus_from_files(const std::filesystem::path& grammar,
                         const std::vector<std::filesystem::path>& inputs);

// A JSON document re-serialized with Python's default json.dumps separators: whitespace between
// tokens dropped, ", " after commas and ": " after colons, strings copied as they are.
std::string python_json_dumps_layout(std::string_view json);

}  // namespace glrmask::experiments
