#include "lexer/regex/lookahead_conjunction.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

#include "lexer/regex/regex_parser.h"
#include "lexer/regex/subset_construction.h"
#include "lib/core/error.h"
#include "lib/grammar/grammar_error.h"

namespace glrmask::lexer {
namespace {

// When `pattern[i]` opens an escape or a character class, the index of its last character, else
// `i`. A class's ']' first (after an optional '^') is literal, as in Python; escapes inside a class
// are skipped; an unclosed class runs to the end of the pattern.
size_t skip_escape_or_class(std::string_view pattern, size_t i) {
  if (pattern[i] == '\\') return i + 1;
  if (pattern[i] != '[') return i;
  size_t j = i + 1;
  if (j < pattern.size() && pattern[j] == '^') ++j;
  if (j < pattern.size() && pattern[j] == ']') ++j;
  for (; j < pattern.size() && pattern[j] != ']'; ++j)
    if (pattern[j] == '\\') ++j;
  return j;
}

// The end of the group that opens at `open` (a '('), i.e. the index of its ')', or npos. Escapes
// and character classes (with ']' first being literal, as in Python) are skipped.
size_t group_end(std::string_view pattern, size_t open) {
  int depth = 0;
  for (size_t i = open; i < pattern.size(); ++i) {
    if (const size_t last = skip_escape_or_class(pattern, i); last != i) {
      i = last;
    } else if (pattern[i] == '(') {
      ++depth;
    } else if (pattern[i] == ')' && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

// The top-level alternatives of `pattern` (split at '|' outside groups and classes).
std::vector<std::string_view> top_level_alternatives(std::string_view pattern) {
  std::vector<std::string_view> out;
  size_t begin = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (const size_t last = skip_escape_or_class(pattern, i); last != i) {
      i = last;
    } else if (pattern[i] == '(') {
      const size_t end = group_end(pattern, i);
      if (end == std::string_view::npos) break;  // the regex parser reports it
      i = end;
    } else if (pattern[i] == '|') {
      out.push_back(pattern.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  out.push_back(pattern.substr(begin));
  return out;
}

bool starts_lookahead(std::string_view text) {
  return text.starts_with("(?=") || text.starts_with("(?!");
}

// A deterministic automaton over byte classes for the *language* of one regex (every string it
// matches, whatever the match priority). State 0 is dead.
struct LanguageDfa {
  std::vector<uint32_t> next;  // next[state * classes + class]
  std::vector<uint8_t> accepting;
  uint32_t start = 0;
};

LanguageDfa language_dfa(const Nfa& nfa, uint32_t entry, const ByteClasses& classes,
                         size_t max_states, std::string_view origin) {
  const uint32_t num_classes = classes.count();
  // The epsilon closure of a set of NFA states: its byte-reading states (sorted) and whether it
  // holds a match.
  auto closure = [&](std::vector<uint32_t> frontier, bool& matched) {
    std::vector<uint32_t> reading;
    std::vector<uint32_t> seen;
    matched = false;
    while (!frontier.empty()) {
      const uint32_t s = frontier.back();
      frontier.pop_back();
      if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
      seen.push_back(s);
      const NfaState& state = nfa.states[s];
      if (state.kind == NfaKind::kSplit) {
        frontier.push_back(state.preferred);
        frontier.push_back(state.other);
      } else if (state.kind == NfaKind::kMatch) {
        matched = true;
      } else {
        reading.push_back(s);
      }
    }
    std::sort(reading.begin(), reading.end());
    return reading;
  };
  LanguageDfa dfa;
  std::map<std::pair<std::vector<uint32_t>, bool>, uint32_t> ids;
  std::vector<std::vector<uint32_t>> sets;
  ids.emplace(std::make_pair(std::vector<uint32_t>{}, false), 0);
  sets.emplace_back();
  dfa.accepting.push_back(0);
  auto intern = [&](std::vector<uint32_t> reading, bool matched) {
    auto [it, inserted] =
        ids.try_emplace(std::make_pair(reading, matched), static_cast<uint32_t>(sets.size()));
    if (inserted) {
      if (sets.size() >= max_states)
        throw Error(fmt::format("{}: a lookahead part needs more than {} automaton states", origin,
                                max_states),
                    ErrorCode::kLimit, parse_source_location(origin));
      sets.push_back(std::move(reading));
      dfa.accepting.push_back(matched ? 1 : 0);
    }
    return it->second;
  };
  bool matched = false;
  std::vector<uint32_t> first = closure({entry}, matched);
  dfa.start = intern(std::move(first), matched);
  for (uint32_t state = 0; state < sets.size(); ++state) {
    dfa.next.resize(sets.size() * num_classes, 0);
    for (uint32_t c = 0; c < num_classes; ++c) {
      const uint8_t byte = classes.representative[c];
      std::vector<uint32_t> targets;
      for (const uint32_t s : sets[state]) {
        const NfaState& reading = nfa.states[s];
        for (uint32_t e = reading.edge_begin; e < reading.edge_end; ++e) {
          const NfaEdge& edge = nfa.edges[e];
          if (byte >= edge.first && byte <= edge.last) targets.push_back(edge.next);
        }
      }
      uint32_t target = 0;
      if (!targets.empty()) {
        std::vector<uint32_t> reading = closure(std::move(targets), matched);
        target = intern(std::move(reading), matched);
      }
      dfa.next.resize(sets.size() * num_classes, 0);
      dfa.next[size_t{state} * num_classes + c] = target;
    }
  }
  dfa.next.resize(sets.size() * num_classes, 0);
  return dfa;
}

struct Piece {
  size_t term = 0;
  enum Role : uint8_t { kBody, kPositive, kNegative } role = kBody;
  std::string text;
};

}  // namespace

std::optional<std::vector<LookaheadTerm>> split_lookahead_terms(std::string_view pattern,
                                                                std::string_view flags,
                                                                std::string_view origin) {
  // A global flag group first, as in "(?i)(?=...)...": Python applies it to every part, which
  // this form does not support (the flags go in TerminalSpec::flags instead).
  if (pattern.starts_with("(?")) {
    const size_t end = group_end(pattern, 0);
    if (end != std::string_view::npos && end > 2 &&
        pattern.substr(2, end - 2).find_first_not_of("aiLmsux") == std::string_view::npos &&
        starts_lookahead(pattern.substr(end + 1)))
      throw Error(
          fmt::format("{}: inline flags beside leading lookaheads are not supported in /{}/",
                      origin, pattern),
          ErrorCode::kGrammar, parse_source_location(origin));
  }
  const std::vector<std::string_view> alternatives = top_level_alternatives(pattern);
  if (std::none_of(alternatives.begin(), alternatives.end(), starts_lookahead)) return std::nullopt;
  if (flags.find('x') != std::string_view::npos)
    throw Error(
        fmt::format("{}: leading lookaheads are not supported with the verbose flag in /{}/",
                    origin, pattern),
        ErrorCode::kGrammar, parse_source_location(origin));
  std::vector<LookaheadTerm> terms;
  for (std::string_view alternative : alternatives) {
    LookaheadTerm term;
    while (starts_lookahead(alternative)) {
      const size_t end = group_end(alternative, 0);
      if (end == std::string_view::npos)
        throw Error(fmt::format("{}: unterminated lookahead in /{}/", origin, pattern),
                    ErrorCode::kGrammar, parse_source_location(origin));
      const std::string inner(alternative.substr(3, end - 3));
      (alternative[2] == '=' ? term.positive : term.negative).push_back(inner);
      alternative.remove_prefix(end + 1);
    }
    // A global flag group such as (?i) would have to precede every alternative.
    if (alternative.starts_with("(?") && alternative.size() > 2 &&
        std::string_view("aiLmsux").find(alternative[2]) != std::string_view::npos) {
      const size_t end = group_end(alternative, 0);
      if (end != std::string_view::npos &&
          alternative.substr(2, end - 2).find(':') == std::string_view::npos)
        throw Error(
            fmt::format("{}: inline flags beside leading lookaheads are not supported in /{}/",
                        origin, pattern),
            ErrorCode::kGrammar, parse_source_location(origin));
    }
    if (alternative.empty())
      throw Error(fmt::format("{}: a lookahead needs a regex after it in /{}/", origin, pattern),
                  ErrorCode::kGrammar, parse_source_location(origin));
    term.body = std::string(alternative);
    terms.push_back(std::move(term));
  }
  return terms;
}

void add_lookahead_terminal(Nfa& nfa, const std::vector<LookaheadTerm>& terms,
                            std::string_view flags, std::string_view origin, size_t max_states) {
  // Every part as a terminal of a scratch NFA, so that one set of byte classes serves them all.
  std::vector<Piece> pieces;
  for (size_t t = 0; t < terms.size(); ++t) {
    pieces.push_back({t, Piece::kBody, terms[t].body});
    for (const std::string& text : terms[t].positive) pieces.push_back({t, Piece::kPositive, text});
    for (const std::string& text : terms[t].negative) pieces.push_back({t, Piece::kNegative, text});
  }
  Nfa scratch;
  for (const Piece& piece : pieces)
    scratch.add_terminal(parse_regex(piece.text, flags, origin), origin, max_states);
  const ByteClasses classes = compute_byte_classes(scratch);
  const uint32_t num_classes = classes.count();
  std::vector<LanguageDfa> dfas;
  for (size_t i = 0; i < pieces.size(); ++i)
    dfas.push_back(language_dfa(scratch, scratch.starts[i], classes, max_states, origin));

  // The product of all parts, breadth first over reachable tuples.
  std::map<std::vector<uint32_t>, uint32_t> ids;
  std::vector<std::vector<uint32_t>> tuples;
  auto intern = [&](std::vector<uint32_t> tuple) {
    auto [it, inserted] = ids.try_emplace(tuple, static_cast<uint32_t>(tuples.size()));
    if (inserted) {
      if (tuples.size() >= max_states)
        throw Error(fmt::format("{}: the lookahead terms need more than {} automaton states",
                                origin, max_states),
                    ErrorCode::kLimit, parse_source_location(origin));
      tuples.push_back(std::move(tuple));
    }
    return it->second;
  };
  std::vector<uint32_t> start_tuple;
  for (const LanguageDfa& dfa : dfas) start_tuple.push_back(dfa.start);
  intern(std::move(start_tuple));
  std::vector<uint32_t> next;
  for (uint32_t s = 0; s < tuples.size(); ++s) {
    for (uint32_t c = 0; c < num_classes; ++c) {
      std::vector<uint32_t> target(dfas.size());
      bool alive = false;
      for (size_t i = 0; i < dfas.size(); ++i) {
        target[i] = dfas[i].next[size_t{tuples[s][i]} * num_classes + c];
        alive = alive || target[i] != 0;
      }
      next.push_back(alive ? intern(std::move(target)) : UINT32_MAX);
    }
  }
  const uint32_t n = static_cast<uint32_t>(tuples.size());
  auto some_part_accepts = [&](uint32_t s) {
    for (size_t i = 0; i < dfas.size(); ++i)
      if (dfas[i].accepting[tuples[s][i]]) return true;
    return false;
  };
  auto accepts = [&](uint32_t s) {
    for (size_t t = 0; t < terms.size(); ++t) {
      bool ok = true;
      for (size_t i = 0; i < pieces.size() && ok; ++i) {
        if (pieces[i].term != t) continue;
        const bool in = dfas[i].accepting[tuples[s][i]] != 0;
        ok = pieces[i].role == Piece::kNegative ? !in : in;
      }
      if (ok) return true;
    }
    return false;
  };
  // Prefix-free union: from no state where some part accepts may a non-empty path reach one.
  {
    std::vector<uint8_t> reaches_accept_after_byte(n, 0);  // some part accepts after >= 1 byte
    bool changed = true;
    while (changed) {
      changed = false;
      for (uint32_t s = 0; s < n; ++s) {
        if (reaches_accept_after_byte[s]) continue;
        for (uint32_t c = 0; c < num_classes; ++c) {
          const uint32_t t = next[size_t{s} * num_classes + c];
          if (t != UINT32_MAX && (some_part_accepts(t) || reaches_accept_after_byte[t])) {
            reaches_accept_after_byte[s] = 1;
            changed = true;
            break;
          }
        }
      }
    }
    for (uint32_t s = 0; s < n; ++s) {
      if (!some_part_accepts(s) || !reaches_accept_after_byte[s]) continue;
      std::string text;
      for (const LookaheadTerm& term : terms) {
        if (!text.empty()) text += "|";
        for (const std::string& p : term.positive) text += "(?=" + p + ")";
        for (const std::string& p : term.negative) text += "(?!" + p + ")";
        text += term.body;
      }
      throw Error(fmt::format("{}: with leading lookaheads no match of a part may be a prefix of a "
                              "match of another (Python's lookahead would then see other text "
                              "than the match) in /{}/",
                              origin, text),
                  ErrorCode::kGrammar, parse_source_location(origin));
    }
  }
  // Trim to the states from which the terminal's language can still be completed.
  std::vector<uint8_t> live(n, 0);
  for (uint32_t s = 0; s < n; ++s) live[s] = accepts(s) ? 1 : 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t s = 0; s < n; ++s) {
      if (live[s]) continue;
      for (uint32_t c = 0; c < num_classes; ++c) {
        const uint32_t t = next[size_t{s} * num_classes + c];
        if (t != UINT32_MAX && live[t]) {
          live[s] = 1;
          changed = true;
          break;
        }
      }
    }
  }
  if (!live[0]) {
    // An empty language is a terminal that never matches (the grammar's rules through it are
    // dead), as a regex like /[^\s\S]/ would be.
    nfa.add_unmatchable_terminal();
    return;
  }
  if (accepts(0))
    throw Error(fmt::format("{}: the lookahead terms match the empty string; a lexer terminal "
                            "must consume at least one character",
                            origin),
                ErrorCode::kGrammar, parse_source_location(origin));

  // Embed: one byte-reading state per live product state; an accepting state with successors
  // prefers reading on (greedy), so the match is the longest, which prefix-freeness makes unique.
  const uint32_t terminal = static_cast<uint32_t>(nfa.starts.size());
  if (nfa.states.size() + 3 * size_t{n} > max_states)
    throw Error(
        fmt::format("{}: regex expands to more than {} automaton states", origin, max_states),
        ErrorCode::kLimit, parse_source_location(origin));
  std::vector<uint32_t> reading(n, UINT32_MAX);
  std::vector<uint32_t> entry(n, UINT32_MAX);
  for (uint32_t s = 0; s < n; ++s) {
    if (!live[s]) continue;
    NfaState state;
    state.kind = NfaKind::kBytes;
    state.terminal = terminal;
    reading[s] = static_cast<uint32_t>(nfa.states.size());
    nfa.states.push_back(state);
  }
  for (uint32_t s = 0; s < n; ++s) {
    if (!live[s]) continue;
    entry[s] = reading[s];
    if (!accepts(s)) continue;
    NfaState match;
    match.kind = NfaKind::kMatch;
    match.terminal = terminal;
    nfa.states.push_back(match);
    NfaState split;
    split.kind = NfaKind::kSplit;
    split.terminal = terminal;
    split.preferred = reading[s];
    split.other = static_cast<uint32_t>(nfa.states.size() - 1);
    nfa.states.push_back(split);
    entry[s] = static_cast<uint32_t>(nfa.states.size() - 1);
  }
  for (uint32_t s = 0; s < n; ++s) {
    if (!live[s]) continue;
    NfaState& state = nfa.states[reading[s]];
    state.edge_begin = static_cast<uint32_t>(nfa.edges.size());
    for (int byte = 0; byte < 256;) {
      const uint32_t t = next[size_t{s} * num_classes + classes.class_of[byte]];
      int last = byte;
      while (last + 1 < 256 && next[size_t{s} * num_classes + classes.class_of[last + 1]] == t)
        ++last;
      if (t != UINT32_MAX && live[t])
        nfa.edges.push_back({static_cast<uint8_t>(byte), static_cast<uint8_t>(last), entry[t]});
      byte = last + 1;
    }
    nfa.states[reading[s]].edge_end = static_cast<uint32_t>(nfa.edges.size());
  }
  nfa.starts.push_back(entry[0]);
}

}  // namespace glrmask::lexer
