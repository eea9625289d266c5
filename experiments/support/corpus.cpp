#include "experiments/support/corpus.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <sstream>

#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/settings.h"

namespace glrmask::experiments {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

bool full(const Corpus& corpus, std::size_t max_texts) {
  return max_texts != 0 && corpus.texts.size() >= max_texts;
}

glr::ParseOptions lark_policy(std::vector<std::string> skippable = {}) {
  glr::ParseOptions options;
  options.policy = glr::ConflictPolicy::kLark;
  options.skippable = std::move(skippable);
  return options;
}

// Files named one per line in <folder>/parses.txt.
void add_listed_files(Corpus& corpus, const fs::path& folder, std::size_t max_texts) {
  for (const std::string& name : lines_of(read_text_file(folder / "parses.txt"))) {
    if (name.empty()) continue;
    if (full(corpus, max_texts)) break;
    corpus.texts.push_back({name, read_text_file(folder / name)});
  }
}

// The programs of the folder that parses.txt does not list: those the grammar rejects.
void add_unlisted_files(Corpus& corpus, const fs::path& folder, const std::string& extension,
                        std::size_t max_texts) {
  const std::vector<std::string> listed = lines_of(read_text_file(folder / "parses.txt"));
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != extension) continue;
    if (std::find(listed.begin(), listed.end(), name) == listed.end()) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    if (full(corpus, max_texts)) break;
    corpus.texts.push_back({name, read_text_file(folder / name)});
  }
}

// "queries.sql:N" entries of parses.txt name line N of queries.sql.
void add_sql_queries(Corpus& corpus, const fs::path& folder, std::size_t max_texts) {
  const std::vector<std::string> queries = lines_of(read_text_file(folder / "queries.sql"));
  for (const std::string& entry : lines_of(read_text_file(folder / "parses.txt"))) {
    if (entry.empty()) continue;
    if (full(corpus, max_texts)) break;
    const std::size_t colon = entry.rfind(':');
    const std::size_t line = colon == std::string::npos ? 0 : std::stoul(entry.substr(colon + 1));
    if (line == 0 || line > queries.size())
      throw Error(fmt::format("{}: entry '{}' names no line of queries.sql",
                              (folder / "parses.txt").string(), entry),
                  ErrorCode::kInvalidArgument);
    corpus.texts.push_back({entry, queries[line - 1]});
  }
}

void add_maskbench_instances(Corpus& corpus, const fs::path& folder, std::size_t max_texts) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  simdjson::ondemand::parser parser;
  for (const fs::path& file : files) {
    if (full(corpus, max_texts)) break;
    const simdjson::padded_string json = simdjson::padded_string::load(file.string());
    try {
      simdjson::ondemand::document document = parser.iterate(json);
      std::size_t index = 0;
      for (auto instance : document["valid"].get_array()) {
        simdjson::ondemand::value value = instance.value();
        std::string_view raw;
        // The grammar's start is an object or an array; scalar instances are not its sentences.
        switch (value.type()) {
          case simdjson::ondemand::json_type::object: {
            simdjson::ondemand::object object = value.get_object();
            raw = object.raw_json();
            break;
          }
          case simdjson::ondemand::json_type::array: {
            simdjson::ondemand::array array = value.get_array();
            raw = array.raw_json();
            break;
          }
          default:
            break;
        }
        if (!raw.empty() && !full(corpus, max_texts))
          corpus.texts.push_back({fmt::format("{}#{}", file.filename().string(), index),
                                  python_json_dumps_layout(raw)});
        ++index;
      }
    } catch (const simdjson::simdjson_error& e) {
      throw Error(fmt::format("{}: not a MaskBench file: {}", file.string(), e.what()),
                  ErrorCode::kInvalidArgument);
    }
  }
}

}  // namespace

const std::vector<std::string>& corpus_names() {
  static const std::vector<std::string> names = {"go", "java", "sql", "json", "python"};
  // Also known, not in the default sweep: python-rejected, json-objects, gbnf-json.
  return names;
}

Corpus load_named_corpus(const std::string& name, std::size_t max_texts) {
  const fs::path data = data_dir();
  if (!fs::is_directory(data))
    throw Error(
        fmt::format("{}: the real-data folder is missing (set GLRMASK_DATA)", data.string()),
        ErrorCode::kIo);
  Corpus corpus;
  corpus.name = name;
  corpus.grammar_path = data / "grammars" / "syncode" / (name + "_grammar.lark");
  const fs::path programs = data / "programs" / name;
  if (name == "go") {
    corpus.options = lark_policy({"EOS"});
    add_listed_files(corpus, programs, max_texts);
  } else if (name == "java") {
    corpus.options = lark_policy();
    add_listed_files(corpus, programs, max_texts);
  } else if (name == "python" || name == "python-rejected") {
    // python-rejected: the programs the grammar rejects (not in parses.txt), for the step and
    // byte where each engine rejects them (the exactness study compares the masks up to there).
    corpus.grammar_path = data / "grammars" / "syncode" / "python_grammar.lark";
    corpus.options = lark_policy();
    corpus.options.postlex = glr::PostLexer::kPythonIndenter;  // SynCode's Indenter settings
    const fs::path folder = data / "programs" / "python";
    if (name == "python") {
      add_listed_files(corpus, folder, max_texts);
    } else {
      add_unlisted_files(corpus, folder, ".py", max_texts);
    }
  } else if (name == "sql") {
    corpus.options = lark_policy();
    add_sql_queries(corpus, programs, max_texts);
  } else if (name == "json") {
    corpus.options = lark_policy();
    add_maskbench_instances(corpus, data / "jsonschema" / "maskbench-dev", max_texts);
  } else if (name == "json-objects" || name == "gbnf-json") {
    // The MaskBench instances that are objects: what llama.cpp's json.gbnf (root ::= object)
    // takes, for SynCode's Lark JSON grammar and json.gbnf on the same texts.
    add_maskbench_instances(corpus, data / "jsonschema" / "maskbench-dev", 0);
    std::erase_if(corpus.texts, [](const CorpusText& text) { return text.text.front() != '{'; });
    if (max_texts != 0 && corpus.texts.size() > max_texts) corpus.texts.resize(max_texts);
    if (name == "json-objects") {
      corpus.grammar_path = data / "grammars" / "syncode" / "json_grammar.lark";
      corpus.options = lark_policy();
    } else {
      corpus.grammar_path = data / "grammars" / "llama.cpp" / "json.gbnf";
      corpus.format = "gbnf";
    }
  } else {
    throw Error(
        fmt::format("unknown corpus '{}' (known: go, java, sql, json, python, python-rejected, "
                    "json-objects, gbnf-json)",
                    name),
        ErrorCode::kInvalidArgument);
  }
  return corpus;
}

Corpus corpus_from_files(const fs::path& grammar, const std::vector<fs::path>& inputs) {
  Corpus corpus;
  corpus.name = grammar.stem().string();
  corpus.grammar_path = grammar;
  if (grammar.extension() == ".gbnf") corpus.format = "gbnf";
  for (const fs::path& input : inputs)
    corpus.texts.push_back({input.filename().string(), read_text_file(input)});
  return corpus;
}

std::string python_json_dumps_layout(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < json.size()) {
        out += json[++i];  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    out += c;
    if (c == '"') in_string = true;
    if (c == ',' || c == ':') out += ' ';
  }
  return out;
}

}  // namespace glrmask::experiments
