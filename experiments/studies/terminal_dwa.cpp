// terminal_dwa: the Terminal DWA table of docs/terminal_dwa.md. For each SynCode grammar and
// tokenizer: lexer configurations (forks) between tokens, realizable terminal sequences, the
// longest one, the automaton's size and distinct weights, build time and peak memory. Each build
// runs in a fresh child process, so its peak memory is its own and it starts cold, as a real
// compilation does.
#include <fmt/format.h>

#include <sstream>

#include "experiments/studies/child_process.h"
#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "lexer/regex/grammar_terminals.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/terminal_dwa/terminal_dwa_builder.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/core/escape.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/token_set/token_set.h"

namespace glrmask::experiments {
namespace {

const std::vector<std::string> kTerminalDwaColumns = {"grammar",
                                                      "tokenizer",
                                                      "tokens",
                                                      "dfa_states",
                                                      "forks",
                                                      "forks_inhibited",
                                                      "realizable_sequences",
                                                      "emitted_sequences",
                                                      "longest_sequence",
                                                      "longest_token",
                                                      "dwa_nodes",
                                                      "trie_nodes",
                                                      "distinct_weights",
                                                      "pieces",
                                                      "trie_s",
                                                      "dwa_s",
                                                      "peak_mib",
                                                      "note"};

// Token bytes readable in a table cell: printable ASCII kept, everything else as \xNN.
std::string readable(std::string_view bytes) {
  return escape_bytes(
      bytes, {.quoted = false, .keep_utf8 = false, .hex_controls = true, .hex_also = "\\`"});
}

std::filesystem::path grammar_path(const std::string& grammar) {
  if (grammar.find('/') != std::string::npos || grammar.ends_with(".lark")) return grammar;
  return data_dir() / "grammars" / "syncode" / (grammar + "_grammar.lark");
}

}  // namespace

// argv: studies --child terminal_dwa GRAMMAR TOKENIZER; prints the row's cells, tab-separated.
int run_terminal_dwa_child(int argc, char** argv) {
  if (argc != 5) return 2;
  const std::string grammar = argv[3], tokenizer = argv[4];
  // The Terminal DWA is lexer-only: a post-lexer's %declare'd terminals (Python's _INDENT and
  // _DEDENT) are never lexed, so they are accepted and get no DFA state.
  LarkOptions lexer_only;
  lexer_only.declared_terminals = true;
  try {
    const lexer::LexerDfa dfa = lexer::compile_lexer_dfa(
        lexer::terminal_specs(load_lark_file(grammar_path(grammar), lexer_only)));
    const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer(tokenizer));
    const auto trie_started = std::chrono::steady_clock::now();
    const lexer::VocabularyTrie trie = lexer::VocabularyTrie::build(vocabulary);
    const double trie_seconds = seconds_since(trie_started);
    TokenSetPool pool(static_cast<std::uint32_t>(vocabulary.size()));
    const lexer::TerminalDwa dwa = lexer::build_terminal_dwa(dfa, trie, pool);
    const lexer::TerminalDwaStats& s = dwa.stats();
    const std::vector<std::string> cells = {
        grammar,
        tokenizer_label(tokenizer),
        std::to_string(s.vocabulary_tokens),
        std::to_string(dfa.num_states()),
        std::to_string(s.forks),
        std::to_string(s.forks_inhibited),
        std::to_string(s.realizable_sequences),
        std::to_string(s.label_sequences),
        std::to_string(s.longest_sequence),
        readable(vocabulary.bytes(s.longest_sequence_token)),
        std::to_string(s.nodes),
        std::to_string(s.trie_nodes),
        std::to_string(s.distinct_weights),
        std::to_string(s.pieces),
        fmt::format("{:.2f}", trie_seconds),
        fmt::format("{:.2f}", s.build_seconds),
        fmt::format("{:.0f}", static_cast<double>(s.peak_memory_bytes) / (1024.0 * 1024.0)),
        ""};
    std::string line;
    for (const std::string& cell : cells) line += (line.empty() ? "" : "\t") + cell;
    fmt::print("{}\n", line);
    return 0;
  } catch (const std::exception& e) {
    std::string message = portable_message(e.what());
    for (char& c : message)
      if (c == '\t') c = ' ';
    std::string line = grammar + "\t" + tokenizer_label(tokenizer);
    for (std::size_t i = 2; i + 1 < kTerminalDwaColumns.size(); ++i) line += "\t";
    fmt::print("{}\trefused: {}\n", line, message);
    return 1;
  }
}

int run_terminal_dwa(const StudyOptions& options) {
  const std::string study = "terminal_dwa";
  std::vector<std::string> grammars = options.grammars;
  if (!options.grammar_file.empty()) grammars = {options.grammar_file.string()};
  if (grammars.empty())
    grammars = options.small() ? std::vector<std::string>{"go", "json"}
                               : std::vector<std::string>{"go", "java", "sql", "python", "json"};
  const std::vector<std::string> tokenizers =
      tokenizer_names(options, options.small() ? std::vector<std::string>{"llama2", "llama3"}
                                               : full_study_tokenizers());
  StudyReport report(options.out_dir, "Terminal DWA per grammar and tokenizer",
                     describe_run(study, options.size_name(), tokenizers));
  ResultTable table(kTerminalDwaColumns);
  ResultTable plot({"label", "trie_s", "dwa_s"});
  for (const std::string& grammar : grammars) {
    for (const std::string& tokenizer : tokenizers) {
      progress(study, fmt::format("{} / {}", grammar, tokenizer));
      const ChildResult child = run_self_as_child({"terminal_dwa", grammar, tokenizer});
      std::vector<std::string> cells;
      std::stringstream stream(child.output.substr(0, child.output.find('\n')));
      for (std::string cell; std::getline(stream, cell, '\t');) cells.push_back(cell);
      cells.resize(kTerminalDwaColumns.size());
      if (cells[0].empty()) {
        cells[0] = grammar;
        cells[1] = tokenizer_label(tokenizer);
        cells.back() = fmt::format("child exited with {}", child.exit_code);
      }
      const std::string label = std::filesystem::path(grammar).stem().string();
      cells[0] = label;
      if (cells.back().empty())
        plot.add_row({label + " " + tokenizer_label(tokenizer), cells[14], cells[15]});
      table.add_row(std::move(cells));
    }
  }
  report.add_text(
      "Forks: lexer configurations between tokens (inhibited: at a match that could still "
      "extend). Realizable sequences: distinct terminal sequences some token emits from some "
      "fork. Build time: vocabulary trie, then the DWA (TBB over forks). Peak MiB: the child "
      "process's VmHWM during the build.");
  report.add_table("terminal_dwa", "Terminal DWA", table);
  report.add_data_table("plot", plot);
  report.add_plot("terminal_dwa", "Terminal DWA build time",
                  "set style data histogram\nset style histogram rowstacked\n"
                  "set style fill solid 0.8 border -1\nset boxwidth 0.7\n"
                  "set xtics rotate by -30\nset ylabel 'seconds'\nset key autotitle columnhead\n"
                  "plot 'plot.csv' using 2:xtic(1), '' using 3");
  report.finish();
  return 0;
}

}  // namespace glrmask::experiments
