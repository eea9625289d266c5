// Random small Lark grammars and vocabularies, and an independent reference for their language,
// for the random-grammar differential test (tests/mask/random_grammar_differential_test.cpp).
//
// The reference shares no code with the library: its own lexer (maximal munch over the
// terminals' Python matches, docs/lexer.md) and its own Earley recognizer over the lexemes, run
// on every string over a four-character alphabet up to a length bound. Only what a generated
// grammar can contain is modelled:
//  - terminals: a literal string, one character of a set (/[ab]/) or a run of one or more
//    characters of a set (/[ab]+/, greedy, so Python's match is the longest run);
//  - a lexeme is the longest of the terminals' matches; its label is the terminals whose match
//    ends there, reduced to the literals among them when there are any (a literal beats a
//    pattern); several terminals left are a tie, kept as alternatives;
//  - a label of ignored terminals only is dropped; a label mixing ignored and other terminals
//    may be taken as one of the others or skipped;
//  - a text is in the language when it lexes and some choice of alternatives is a sentence of
//    the rules (no priorities, every conflict kept: the GLR policy).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace glrmask::testing::random_grammar {

// The alphabet of the texts: 'a', 'b', ' ' and "é" (two bytes, C3 A9), so that tokens can hold
// part of a character.
inline const std::vector<std::string>& alphabet() {
  static const std::vector<std::string> characters{"a", "b", " ", "\xc3\xa9"};
  return characters;
}

struct Terminal {
  enum class Kind { kLiteral, kOneOf, kRunOf } kind = Kind::kLiteral;
  std::vector<int> text;  // kLiteral: the characters (indices into alphabet())
  std::set<int> set;      // kOneOf, kRunOf: the characters
  bool ignored = false;
  std::string name;
  std::string lark;  // the definition's right-hand side in Lark
};

// A symbol of a rule: a terminal (index into terminals) or a nonterminal (index into rules).
struct Symbol {
  bool terminal = false;
  int index = 0;
};

struct RandomGrammar {
  // Whether some terminal is ignored (then a blank can separate any two lexemes).
  bool has_ignored() const {
    return std::any_of(terminals.begin(), terminals.end(),
                       [](const Terminal& t) { return t.ignored; });
  }
  std::vector<Terminal> terminals;
  std::vector<std::vector<std::vector<Symbol>>> rules;  // rules[0] is `start`
  std::string lark;
};

inline std::string rule_name(std::size_t index) {
  return index == 0 ? "start" : "n" + std::to_string(index);
}

inline std::string class_text(const std::set<int>& set, bool reversed) {
  std::string out;
  for (const int c : set) out += alphabet()[static_cast<std::size_t>(c)];
  if (reversed) std::reverse(out.begin(), out.end());  // never inside "é": only 1-byte members
  return out;
}

// A grammar of 1 to 3 rules with 1 to 3 alternatives of 0 to 3 symbols each (so ε-rules, left
// and right recursion and ambiguity arise), over 2 to 4 terminals drawn from a pool where
// literals, single characters and runs overlap (lexical ties), and three times in four an ignored
// run of spaces, sometimes tied with a space terminal the rules use.
inline RandomGrammar generate_grammar(std::mt19937& random) {
  auto below = [&random](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
  const int a = 0, b = 1, space = 2, e = 3;
  struct PoolEntry {
    Terminal::Kind kind;
    std::vector<int> characters;
  };
  const std::vector<PoolEntry> pool{
      {Terminal::Kind::kLiteral, {a}},    {Terminal::Kind::kLiteral, {b}},
      {Terminal::Kind::kLiteral, {a, b}}, {Terminal::Kind::kLiteral, {b, a}},
      {Terminal::Kind::kLiteral, {e}},    {Terminal::Kind::kLiteral, {a, e}},
      {Terminal::Kind::kLiteral, {a, a}}, {Terminal::Kind::kRunOf, {a}},
      {Terminal::Kind::kRunOf, {b}},      {Terminal::Kind::kRunOf, {a, b}},
      {Terminal::Kind::kRunOf, {a, e}},   {Terminal::Kind::kRunOf, {b, e}},
      {Terminal::Kind::kOneOf, {a, b}},   {Terminal::Kind::kOneOf, {b, e}},
      {Terminal::Kind::kRunOf, {a, b}},  // twice: two patterns with the same matches tie
  };
  RandomGrammar grammar;
  std::set<std::size_t> taken;
  const int terminal_count = 2 + below(3);
  while (static_cast<int>(grammar.terminals.size()) < terminal_count) {
    const auto pick = static_cast<std::size_t>(below(static_cast<int>(pool.size())));
    if (!taken.insert(pick).second) continue;
    Terminal terminal;
    terminal.kind = pool[pick].kind;
    if (terminal.kind == Terminal::Kind::kLiteral) {
      terminal.text = pool[pick].characters;
      terminal.lark = "\"";
      for (const int c : terminal.text) terminal.lark += alphabet()[static_cast<std::size_t>(c)];
      terminal.lark += "\"";
    } else {
      terminal.set = {pool[pick].characters.begin(), pool[pick].characters.end()};
      const bool has_e = terminal.set.count(e) != 0;
      terminal.lark = "/[" + class_text(terminal.set, !has_e && pick == pool.size() - 1) + "]" +
                      (terminal.kind == Terminal::Kind::kRunOf ? "+" : "") + "/";
    }
    grammar.terminals.push_back(terminal);
  }
  std::vector<int> usable;  // terminals the rules may use
  for (std::size_t i = 0; i < grammar.terminals.size(); ++i) usable.push_back(static_cast<int>(i));
  if (below(4) != 0) {
    Terminal ignored;
    ignored.kind = Terminal::Kind::kRunOf;
    ignored.set = {space};
    ignored.ignored = true;
    ignored.lark = "/[ ]+/";
    grammar.terminals.push_back(ignored);
    if (below(3) == 0) {  // a single space is a tie of the ignored run and SP: "skip" or SP
      Terminal tied;
      tied.kind = Terminal::Kind::kOneOf;
      tied.set = {space};
      tied.lark = "/[ ]/";
      usable.push_back(static_cast<int>(grammar.terminals.size()));
      grammar.terminals.push_back(tied);
    }
  }
  for (std::size_t i = 0; i < grammar.terminals.size(); ++i)
    grammar.terminals[i].name = grammar.terminals[i].ignored ? "WS" : "T" + std::to_string(i);

  const int rule_count = 1 + below(3);
  grammar.rules.resize(static_cast<std::size_t>(rule_count));
  for (auto& alternatives : grammar.rules) {
    const int alternative_count = 1 + below(3);
    for (int k = 0; k < alternative_count; ++k) {
      std::vector<Symbol> alternative;
      const int length = below(4);
      for (int s = 0; s < length; ++s) {
        if (below(5) < 3)
          alternative.push_back(
              {true, usable[static_cast<std::size_t>(below(static_cast<int>(usable.size())))]});
        else
          alternative.push_back({false, below(rule_count)});
      }
      alternatives.push_back(alternative);
    }
  }
  // So that the library drops nothing (it would then lex with other terminals than the
  // reference): every rule's first alternative holds terminals only (every rule derives some
  // text), every rule is used by an earlier one (every rule is reachable), and every terminal is
  // used somewhere.
  auto random_terminal = [&] {
    return Symbol{true, usable[static_cast<std::size_t>(below(static_cast<int>(usable.size())))]};
  };
  for (auto& alternatives : grammar.rules)
    for (Symbol& symbol : alternatives[0])
      if (!symbol.terminal) symbol = random_terminal();
  for (int r = 1; r < rule_count; ++r) {
    auto& user = grammar.rules[static_cast<std::size_t>(below(r))];
    if (user.size() > 1)
      user[static_cast<std::size_t>(1 + below(static_cast<int>(user.size()) - 1))].push_back(
          {false, r});
    else
      user.push_back({{false, r}});
  }
  for (const int terminal : usable) {
    bool used = false;
    for (const auto& alternatives : grammar.rules)
      for (const auto& alternative : alternatives)
        for (const Symbol& symbol : alternative)
          used = used || (symbol.terminal && symbol.index == terminal);
    if (used) continue;
    auto& alternatives = grammar.rules[static_cast<std::size_t>(below(rule_count))];
    alternatives[static_cast<std::size_t>(below(static_cast<int>(alternatives.size())))].push_back(
        {true, terminal});
  }
  for (std::size_t r = 0; r < grammar.rules.size(); ++r) {
    grammar.lark += rule_name(r) + ":";
    for (std::size_t k = 0; k < grammar.rules[r].size(); ++k) {
      grammar.lark += k == 0 ? "" : " |";
      for (const Symbol& symbol : grammar.rules[r][k])
        grammar.lark +=
            " " + (symbol.terminal ? grammar.terminals[static_cast<std::size_t>(symbol.index)].name
                                   : rule_name(static_cast<std::size_t>(symbol.index)));
    }
    grammar.lark += "\n";
  }
  for (const Terminal& terminal : grammar.terminals)
    grammar.lark += terminal.name + ": " + terminal.lark + "\n";
  for (const Terminal& terminal : grammar.terminals)
    if (terminal.ignored) grammar.lark += "%ignore " + terminal.name + "\n";
  return grammar;
}

// A lexeme: the terminals it may be (ignored ones left out) and whether it may be skipped.
struct Lexeme {
  std::set<int> terminals;
  bool skippable = false;
};

// The end of Python's match of `terminal` at `position` of `text`, or -1.
inline int match_end(const Terminal& terminal, const std::vector<int>& text, std::size_t position) {
  switch (terminal.kind) {
    case Terminal::Kind::kLiteral:
      if (position + terminal.text.size() > text.size()) return -1;
      if (!std::equal(terminal.text.begin(), terminal.text.end(),
                      text.begin() + static_cast<std::ptrdiff_t>(position)))
        return -1;
      return static_cast<int>(position + terminal.text.size());
    case Terminal::Kind::kOneOf:
      return position < text.size() && terminal.set.count(text[position])
                 ? static_cast<int>(position + 1)
                 : -1;
    case Terminal::Kind::kRunOf: {
      std::size_t end = position;
      while (end < text.size() && terminal.set.count(text[end])) ++end;
      return end > position ? static_cast<int>(end) : -1;
    }
  }
  return -1;
}

// Lexes `text` (characters); false when some position starts no terminal.
inline bool lex(const RandomGrammar& grammar, const std::vector<int>& text,
                std::vector<Lexeme>& lexemes) {
  lexemes.clear();
  std::size_t position = 0;
  while (position < text.size()) {
    std::vector<int> ends(grammar.terminals.size());
    int longest = -1;
    for (std::size_t t = 0; t < grammar.terminals.size(); ++t) {
      ends[t] = match_end(grammar.terminals[t], text, position);
      longest = std::max(longest, ends[t]);
    }
    if (longest < 0) return false;
    std::vector<std::size_t> label;
    bool literal = false;
    for (std::size_t t = 0; t < grammar.terminals.size(); ++t)
      if (ends[t] == longest) {
        label.push_back(t);
        literal = literal || grammar.terminals[t].kind == Terminal::Kind::kLiteral;
      }
    Lexeme lexeme;
    for (const std::size_t t : label) {
      if (literal && grammar.terminals[t].kind != Terminal::Kind::kLiteral) continue;
      if (grammar.terminals[t].ignored)
        lexeme.skippable = true;
      else
        lexeme.terminals.insert(static_cast<int>(t));
    }
    if (!lexeme.terminals.empty()) lexemes.push_back(lexeme);
    position = static_cast<std::size_t>(longest);
  }
  return true;
}

// Earley recognition of the lexemes by the rules, every alternative of every lexeme tried.
class Earley {
 public:
  explicit Earley(const RandomGrammar& grammar) : grammar_(grammar) {
    nullable_.assign(grammar.rules.size(), false);
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t r = 0; r < grammar.rules.size(); ++r) {
        if (nullable_[r]) continue;
        for (const auto& alternative : grammar.rules[r])
          if (std::all_of(alternative.begin(), alternative.end(), [&](const Symbol& s) {
                return !s.terminal && nullable_[static_cast<std::size_t>(s.index)];
              })) {
            nullable_[r] = true;
            changed = true;
            break;
          }
      }
    }
  }

  bool accepts(const std::vector<Lexeme>& lexemes) const { return run(lexemes, true); }
  // Whether the lexemes are a prefix of a sentence of terminals (every rule derives some text,
  // so an Earley chart that is not empty can always be completed).
  bool live(const std::vector<Lexeme>& lexemes) const { return run(lexemes, false); }

 private:
  bool run(const std::vector<Lexeme>& lexemes, bool complete) const {
    std::vector<std::set<Item>> charts(lexemes.size() + 1);
    for (std::size_t k = 0; k < grammar_.rules[0].size(); ++k) charts[0].insert({0, k, 0, 0});
    for (std::size_t i = 0; i <= lexemes.size(); ++i) {
      close(charts, i);
      if (i == lexemes.size()) break;
      const Lexeme& lexeme = lexemes[i];
      if (lexeme.skippable) charts[i + 1].insert(charts[i].begin(), charts[i].end());
      for (const Item& item : charts[i]) {
        const auto& alternative = grammar_.rules[item.rule][item.alternative];
        if (item.dot < alternative.size() && alternative[item.dot].terminal &&
            lexeme.terminals.count(alternative[item.dot].index))
          charts[i + 1].insert({item.rule, item.alternative, item.dot + 1, item.origin});
      }
    }
    if (!complete) return !charts.back().empty();
    for (const Item& item : charts.back())
      if (item.rule == 0 && item.origin == 0 &&
          item.dot == grammar_.rules[0][item.alternative].size())
        return true;
    return false;
  }

  struct Item {
    std::size_t rule, alternative, dot, origin;
    auto operator<=>(const Item&) const = default;
  };

  void close(std::vector<std::set<Item>>& charts, std::size_t i) const {
    std::vector<Item> agenda(charts[i].begin(), charts[i].end());
    auto add = [&](const Item& item) {
      if (charts[i].insert(item).second) agenda.push_back(item);
    };
    while (!agenda.empty()) {
      const Item item = agenda.back();
      agenda.pop_back();
      const auto& alternative = grammar_.rules[item.rule][item.alternative];
      if (item.dot == alternative.size()) {  // complete: advance what waited at its origin
        const std::vector<Item> waiting(charts[item.origin].begin(), charts[item.origin].end());
        for (const Item& parent : waiting) {
          const auto& parent_alternative = grammar_.rules[parent.rule][parent.alternative];
          if (parent.dot < parent_alternative.size() && !parent_alternative[parent.dot].terminal &&
              static_cast<std::size_t>(parent_alternative[parent.dot].index) == item.rule)
            add({parent.rule, parent.alternative, parent.dot + 1, parent.origin});
        }
        continue;
      }
      const Symbol& next = alternative[item.dot];
      if (next.terminal) continue;
      const auto rule = static_cast<std::size_t>(next.index);
      for (std::size_t k = 0; k < grammar_.rules[rule].size(); ++k) add({rule, k, 0, i});
      // Aycock and Horspool: a nullable nonterminal may be stepped over at once.
      if (nullable_[rule]) add({item.rule, item.alternative, item.dot + 1, item.origin});
    }
  }

  const RandomGrammar& grammar_;
  std::vector<bool> nullable_;
};

// The language up to `max_characters` characters, as bytes: the sentences, and every byte
// prefix of a sentence (the texts that are viable within the bound).
struct BoundedLanguage {
  std::set<std::string> sentences;
  std::set<std::string> viable_prefixes;
};

inline BoundedLanguage enumerate_language(const RandomGrammar& grammar,
                                          std::size_t max_characters) {
  BoundedLanguage language;
  const Earley earley(grammar);
  std::vector<Lexeme> lexemes;
  std::vector<std::vector<int>> layer{{}};
  for (std::size_t length = 0; length <= max_characters; ++length) {
    std::vector<std::vector<int>> next;
    for (const std::vector<int>& text : layer) {
      if (lex(grammar, text, lexemes) && earley.accepts(lexemes)) {
        std::string bytes;
        for (const int c : text) bytes += alphabet()[static_cast<std::size_t>(c)];
        language.sentences.insert(bytes);
        for (std::size_t n = 0; n <= bytes.size(); ++n)
          language.viable_prefixes.insert(bytes.substr(0, n));
      }
      if (length == max_characters) continue;
      for (int c = 0; c < static_cast<int>(alphabet().size()); ++c) {
        next.push_back(text);
        next.back().push_back(c);
      }
    }
    layer = std::move(next);
  }
  return language;
}

// Whether some text of at most `max_extra` more characters makes the bytes `text` a sentence
// (brute force over the completions, shortest first). False when `text` is no UTF-8 prefix over
// the alphabet.
inline bool has_completion(const RandomGrammar& grammar, std::string text, std::size_t max_extra) {
  if (!text.empty() && text.back() == '\xc3') text += '\xa9';  // a completion must finish "é"
  std::vector<int> characters;
  for (std::size_t at = 0; at < text.size();) {
    int found = -1;
    for (std::size_t c = 0; c < alphabet().size(); ++c)
      if (text.compare(at, alphabet()[c].size(), alphabet()[c]) == 0) found = static_cast<int>(c);
    if (found < 0) return false;
    characters.push_back(found);
    at += alphabet()[static_cast<std::size_t>(found)].size();
  }
  const Earley earley(grammar);
  std::vector<Lexeme> lexemes;
  std::vector<std::vector<int>> layer{characters};
  for (std::size_t extra = 0; extra <= max_extra; ++extra) {
    std::vector<std::vector<int>> next;
    for (const std::vector<int>& candidate : layer) {
      if (lex(grammar, candidate, lexemes) && earley.accepts(lexemes)) return true;
      if (extra == max_extra) continue;
      for (int c = 0; c < static_cast<int>(alphabet().size()); ++c) {
        next.push_back(candidate);
        next.back().push_back(c);
      }
    }
    layer = std::move(next);
  }
  return false;
}

// Viability without a length bound, for grammars where every terminal sequence can be written
// as text: some terminal is ignored (a blank then separates any two lexemes), no rule uses a
// blank, and every terminal has a text of at most three characters that lexes as one lexeme
// whose label holds it. Then `text` is viable iff, for some ending c of at most two characters,
// text + c lexes and its lexemes are a prefix of a sentence of terminals (the rest is written as
// " " + the text of each further terminal). nullopt when the grammar is not of that kind.
class LexemeViability {
 public:
  explicit LexemeViability(const RandomGrammar& grammar) : grammar_(grammar), earley_(grammar) {
    applies_ = grammar.has_ignored();
    for (std::size_t t = 0; t < grammar.terminals.size() && applies_; ++t) {
      const Terminal& terminal = grammar.terminals[t];
      if (terminal.ignored) continue;
      if (terminal.set.count(2) != 0) applies_ = false;  // a rule uses a blank
      bool written = false;
      std::vector<std::vector<int>> layer{{}};
      for (int length = 1; length <= 3 && !written; ++length) {
        std::vector<std::vector<int>> next;
        for (const auto& candidate : layer)
          for (int c = 0; c < static_cast<int>(alphabet().size()); ++c) {
            next.push_back(candidate);
            next.back().push_back(c);
            std::vector<Lexeme> lexemes;
            if (lex(grammar, next.back(), lexemes) && lexemes.size() == 1 &&
                lexemes[0].terminals.count(static_cast<int>(t)) != 0)
              written = true;
          }
        layer = std::move(next);
      }
      applies_ = applies_ && written;
    }
  }

  std::optional<bool> viable(std::string text) const {
    if (!applies_) return std::nullopt;
    if (!text.empty() && text.back() == '\xc3') text += '\xa9';
    std::vector<int> characters;
    for (std::size_t at = 0; at < text.size();) {
      int found = -1;
      for (std::size_t c = 0; c < alphabet().size(); ++c)
        if (text.compare(at, alphabet()[c].size(), alphabet()[c]) == 0) found = static_cast<int>(c);
      if (found < 0) return false;
      characters.push_back(found);
      at += alphabet()[static_cast<std::size_t>(found)].size();
    }
    std::vector<Lexeme> lexemes;
    std::vector<std::vector<int>> layer{characters};
    for (int extra = 0; extra <= 2; ++extra) {
      std::vector<std::vector<int>> next;
      for (const auto& candidate : layer) {
        if (lex(grammar_, candidate, lexemes) && earley_.live(lexemes)) return true;
        for (int c = 0; c < static_cast<int>(alphabet().size()); ++c) {
          next.push_back(candidate);
          next.back().push_back(c);
        }
      }
      layer = std::move(next);
    }
    return false;
  }

 private:
  const RandomGrammar& grammar_;
  Earley earley_;
  bool applies_ = false;
};

// The bytes of a random small vocabulary: every single byte of the alphabet (so each viable
// text can be spelled), then up to eight distinct tokens of two or three bytes, which span
// lexemes and hold parts of "é".
inline std::vector<std::string> generate_vocabulary(std::mt19937& random) {
  const std::string bytes = "ab \xc3\xa9";
  std::vector<std::string> tokens;
  for (const char c : bytes) tokens.emplace_back(1, c);
  const int extra = std::uniform_int_distribution<int>(0, 8)(random);
  for (int i = 0; i < extra; ++i) {
    std::string token;
    const int length = std::uniform_int_distribution<int>(2, 3)(random);
    for (int k = 0; k < length; ++k)
      token += bytes[static_cast<std::size_t>(std::uniform_int_distribution<int>(0, 4)(random))];
    if (std::find(tokens.begin(), tokens.end(), token) == tokens.end()) tokens.push_back(token);
  }
  return tokens;
}

}  // namespace glrmask::testing::random_grammar
