// Random small Lark grammars for the forest and counterexample tests: up to four nonterminals
// (`start`, `n1`..), one to three alternatives each of up to three symbols over the literals "a",
// "b", "c" and the nonterminals. ε-rules, unit rules, derivation cycles and hidden left recursion
// all occur; alternatives of one rule are distinct (Lark refuses duplicates).
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace glrmask::testing {

inline std::string random_lark_grammar(std::mt19937& rng, int max_nonterminals = 4) {
  const int nonterminals = std::uniform_int_distribution<int>(1, max_nonterminals)(rng);
  auto name = [](int n) { return n == 0 ? std::string("start") : "n" + std::to_string(n); };
  std::string text;
  for (int n = 0; n < nonterminals; ++n) {
    std::vector<std::string> alternatives;
    const int count = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int a = 0; a < count; ++a) {
      std::string body;
      const int length = std::uniform_int_distribution<int>(0, 3)(rng);
      for (int k = 0; k < length; ++k) {
        if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
          body += std::string(" \"") + "abc"[std::uniform_int_distribution<int>(0, 2)(rng)] + "\"";
        } else {
          body += " " + name(std::uniform_int_distribution<int>(0, nonterminals - 1)(rng));
        }
      }
      if (std::find(alternatives.begin(), alternatives.end(), body) == alternatives.end())
        alternatives.push_back(body);
    }
    text += name(n) + ":";
    for (std::size_t a = 0; a < alternatives.size(); ++a)
      text += (a > 0 ? " |" : "") + alternatives[a];
    text += "\n";
  }
  return text;
}

// Every string over `alphabet` of length 0..max_length, shortest first.
template <typename Symbol>
std::vector<std::vector<Symbol>> all_strings(const std::vector<Symbol>& alphabet,
                                             std::size_t max_length) {
  std::vector<std::vector<Symbol>> strings{{}};
  std::size_t begin = 0;
  for (std::size_t length = 1; length <= max_length; ++length) {
    const std::size_t end = strings.size();
    for (std::size_t i = begin; i < end; ++i) {
      for (const Symbol& symbol : alphabet) {
        std::vector<Symbol> longer = strings[i];
        longer.push_back(symbol);
        strings.push_back(std::move(longer));
      }
    }
    begin = end;
  }
  return strings;
}

}  // namespace glrmask::testing
