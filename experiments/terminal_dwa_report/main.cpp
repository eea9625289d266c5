// Prints the Terminal DWA table of docs/terminal_dwa.md: for each SynCode grammar and tokenizer,
// the lexer configurations (forks) between tokens, the realizable terminal sequences, the longest
// one, the automaton's size and distinct weights, build time and peak memory.
//
//   terminal_dwa_report [--grammars go,java,sql,python,json] [--tokenizers
//   llama2,llama3,qwen3,gemma3]
//
// Each (grammar, tokenizer) pair is built in a fresh child process (the program runs itself
// with --one), so the peak resident memory (VmHWM) belongs to that build alone and every build
// starts cold, as a real compilation does.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lexer/grammar_terminals.h"
#include "lexer/lexer_dfa_compiler.h"
#include "lexer/terminal_dwa_builder.h"
#include "lexer/vocabulary_trie.h"
#include "lib/lark_loader.h"
#include "lib/settings.h"
#include "lib/token_set.h"
#include "lib/vocabulary.h"

namespace glrmask {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> parts;
  std::stringstream stream(list);
  for (std::string part; std::getline(stream, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

// Printable token text for a Markdown cell: ASCII kept, '|' and the rest escaped.
std::string cell_text(std::string_view bytes) {
  std::string text;
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '|' || c == '`' || c == '\\') {
      text += fmt::format("\\x{:02x}", byte);
    } else if (byte >= 0x20 && byte < 0x7f) {
      text += c;
    } else {
      text += fmt::format("\\x{:02x}", byte);
    }
  }
  return text;
}

// One build; prints one Markdown table row (or a row saying why there is none).
int build_one(const std::string& grammar, const std::string& tokenizer) {
  std::string row_start = fmt::format("| {} | {} |", grammar, tokenizer);
  try {
    const auto path = data_dir() / "grammars" / "syncode" / (grammar + "_grammar.lark");
    const lexer::LexerDfa dfa =
        lexer::compile_lexer_dfa(lexer::terminal_specs(load_lark_file(path)));
    const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer(tokenizer));
    const auto trie_started = std::chrono::steady_clock::now();
    const lexer::VocabularyTrie trie = lexer::VocabularyTrie::build(vocabulary);
    const double trie_seconds = seconds_since(trie_started);
    TokenSetPool pool(static_cast<uint32_t>(vocabulary.size()));
    const lexer::TerminalDwa dwa = lexer::build_terminal_dwa(dfa, trie, pool);
    const lexer::TerminalDwaStats& s = dwa.stats();
    std::cout
        << fmt::format(
               "{} {} | {} | {} ({}) | {} | {} | {} `{}` | {} ({}) | {} | {} | {:.2f} + {:.2f} "
               "| {:.0f} |",
               row_start, s.vocabulary_tokens, dfa.num_states(), s.forks, s.forks_inhibited,
               s.realizable_sequences, s.label_sequences, s.longest_sequence,
               cell_text(vocabulary.bytes(s.longest_sequence_token)), s.nodes, s.trie_nodes,
               s.distinct_weights, s.pieces, trie_seconds, s.build_seconds,
               static_cast<double>(s.peak_memory_bytes) / (1024.0 * 1024.0))
        << std::endl;
    return 0;
  } catch (const std::exception& e) {
    std::string message = e.what();
    // Name the grammar file relative to the data folder, not by this machine's path.
    const std::string data = (data_dir() / "").string();
    for (size_t at; (at = message.find(data)) != std::string::npos;) {
      message.replace(at, data.size(), "data/");
    }
    if (const size_t newline = message.find('\n'); newline != std::string::npos) {
      message.resize(newline);
    }
    std::cout << fmt::format("{} refused: {} |||||||||||", row_start, cell_text(message))
              << std::endl;
    return 1;
  }
}

}  // namespace
}  // namespace glrmask

int main(int argc, char** argv) {
  std::vector<std::string> grammars = {"go", "java", "sql", "python", "json"};
  std::vector<std::string> tokenizers = {"llama2", "llama3", "qwen3", "gemma3"};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--one" && i + 2 < argc) return glrmask::build_one(argv[i + 1], argv[i + 2]);
    if (arg == "--grammars" && i + 1 < argc) {
      grammars = glrmask::split(argv[++i]);
    } else if (arg == "--tokenizers" && i + 1 < argc) {
      tokenizers = glrmask::split(argv[++i]);
    } else {
      std::cerr
          << "usage: " << argv[0]
          << " [--grammars go,java,sql,python,json] [--tokenizers llama2,llama3,qwen3,gemma3]\n";
      return 2;
    }
  }
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  std::cout << "Terminal DWA, SynCode grammars, " << std::thread::hardware_concurrency()
            << " hardware threads\n\n"
            << "| grammar | tokenizer | tokens | DFA states | forks (inhibited) | realizable "
               "sequences | emitted sequences | longest (labels, token) | DWA nodes (unshared) | "
               "distinct weights | pieces | build s (trie + DWA) | peak MB |\n"
            << "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n";
  for (const std::string& grammar : grammars) {
    for (const std::string& tokenizer : tokenizers) {
      std::cout.flush();
      const std::string command = "'" + self.string() + "' --one " + grammar + " " + tokenizer;
      if (std::system(command.c_str()) == -1) {
        std::cout << "| " << grammar << " | " << tokenizer << " | could not run a child |\n";
      }
    }
  }
  return 0;
}
