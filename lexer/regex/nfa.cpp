#include "lexer/regex/nfa.h"

#include <fmt/format.h>

#include <map>
#include <unordered_map>
#include <utility>

#include "lexer/regex/utf8_sequences.h"
#include "lib/core/error.h"
#include "lib/core/token_terminal.h"
#include "lib/grammar/grammar_error.h"

namespace glrmask::lexer {
namespace {

// Builds one terminal's automaton backwards: compile(node, next) returns the entry state of a
// fragment that continues at `next`, so no dangling-edge patch lists are needed.
class TerminalCompiler {
 public:
  TerminalCompiler(Nfa& nfa, const Regex& regex, std::string_view origin, size_t max_states)
      : nfa_(nfa),
        regex_(regex),
        origin_(origin),
        max_states_(max_states),
        terminal_(static_cast<uint32_t>(nfa.starts.size())) {}

  uint32_t compile_terminal() {
    NfaState match;
    match.kind = NfaKind::kMatch;
    return compile(regex_.root, add_state(match));
  }

 private:
  uint32_t add_state(NfaState state) {
    if (nfa_.states.size() >= max_states_) {
      throw Error(
          fmt::format("{}: regex expands to more than {} automaton states", origin_, max_states_),
          ErrorCode::kLimit, parse_source_location(origin_));
    }
    state.terminal = terminal_;
    nfa_.states.push_back(state);
    return static_cast<uint32_t>(nfa_.states.size() - 1);
  }

  uint32_t add_split(uint32_t preferred, uint32_t other) {
    NfaState split;
    split.kind = NfaKind::kSplit;
    split.preferred = preferred;
    split.other = other;
    return add_state(split);
  }

  uint32_t compile(uint32_t index, uint32_t next) {
    const RegexNode& node = regex_.nodes[index];
    switch (node.kind) {
      case RegexKind::kEmpty:
        return next;
      case RegexKind::kCodePoints:
        return compile_code_points(node.code_points, next);
      case RegexKind::kConcat:
        for (auto child = node.children.rbegin(); child != node.children.rend(); ++child) {
          next = compile(*child, next);
        }
        return next;
      case RegexKind::kAlternate: {
        std::vector<uint32_t> entries;
        for (uint32_t child : node.children) entries.push_back(compile(child, next));
        uint32_t entry = entries.back();
        for (size_t i = entries.size() - 1; i-- > 0;) entry = add_split(entries[i], entry);
        return entry;
      }
      case RegexKind::kRepeat:
        return compile_repeat(node, next);
      case RegexKind::kVetoedEnd: {
        if (nfa_.states[next].kind != NfaKind::kMatch)
          throw Error(fmt::format("{}: the lookahead guard (?!qq) is supported only where its "
                                  "match ends the pattern",
                                  origin_),
                      ErrorCode::kGrammar, parse_source_location(origin_));
        NfaState vetoed;
        vetoed.kind = NfaKind::kMatch;
        vetoed.veto = node.veto;
        return compile_code_points(node.code_points, add_state(vetoed));
      }
    }
    return next;
  }

  uint32_t compile_repeat(const RegexNode& node, uint32_t next) {
    const uint32_t body = node.children[0];
    uint32_t entry = next;
    uint32_t copies = node.min;
    if (node.max == RegexNode::kUnbounded) {
      // The loop state is created first so the body can jump back to it.
      const uint32_t loop = add_split(0, 0);
      const uint32_t body_entry = compile(body, loop);
      nfa_.states[loop].preferred = node.lazy ? next : body_entry;
      nfa_.states[loop].other = node.lazy ? body_entry : next;
      if (copies == 0) {
        entry = loop;
      } else {
        entry = body_entry;  // x{m,} = x{m-1} x+
        --copies;
      }
    } else {
      // x{0,n} = (x(x(...)?)?)?: each optional copy guards the next, every skip leaves the repeat.
      for (uint32_t optional = node.max - node.min; optional > 0; --optional) {
        const uint32_t body_entry = compile(body, entry);
        entry = node.lazy ? add_split(next, body_entry) : add_split(body_entry, next);
      }
    }
    for (; copies > 0; --copies) entry = compile(body, entry);
    return entry;
  }

  // A deterministic byte trie of the set's UTF-8 encodings, with equal suffixes shared, so that
  // a large Unicode class costs a few hundred states and at most one thread at a time. The trie
  // is built once per set and copied for every use: a counted string `(?:c){0,n}` compiles its
  // character class n times, and building the trie each time was a tenth of a schema's lexer.
  uint32_t compile_code_points(const CodePointRanges& ranges, uint32_t next) {
    auto [it, inserted] = code_point_automata_.try_emplace(&ranges);
    if (inserted) it->second = code_point_automaton(ranges);
    const CodePointAutomaton& automaton = it->second;
    const uint32_t base = static_cast<uint32_t>(nfa_.states.size());
    uint32_t edge = 0;
    for (const uint32_t edge_end : automaton.edge_end) {
      NfaState state;
      state.kind = NfaKind::kBytes;
      state.edge_begin = static_cast<uint32_t>(nfa_.edges.size());
      for (; edge < edge_end; ++edge) {
        NfaEdge copy = automaton.edges[edge];
        copy.next = copy.next == kExit ? next : base + copy.next;
        nfa_.edges.push_back(copy);
      }
      state.edge_end = static_cast<uint32_t>(nfa_.edges.size());
      add_state(state);  // numbered base + its index in the automaton
    }
    return base + automaton.entry;
  }

  // A code-point set's automaton with its exit left open: states in creation order, each edge
  // leading to a state of the automaton (by index) or, kExit, to where the set continues. Whether
  // two trie nodes are shared does not depend on that continuation (no state of the automaton is
  // the continuation), so every copy equals the automaton built for its continuation directly.
  static constexpr uint32_t kExit = UINT32_MAX;
  struct CodePointAutomaton {
    std::vector<uint32_t> edge_end;  // per state: the end of its edges in `edges`
    std::vector<NfaEdge> edges;
    uint32_t entry = 0;
  };

  static CodePointAutomaton code_point_automaton(const CodePointRanges& ranges) {
    std::vector<Utf8Sequence> sequences;
    for (const CodePointRange& range : ranges) {
      append_utf8_sequences(range.first, range.last, sequences);
    }
    struct TrieEdge {
      ByteRange range;
      int32_t child;  // -1: the sequence ends here and continues at the exit
    };
    std::vector<std::vector<TrieEdge>> trie(1);
    for (const Utf8Sequence& sequence : sequences) {
      size_t node = 0;
      for (int k = 0; k < sequence.length; ++k) {
        const ByteRange range = sequence.ranges[k];
        std::vector<TrieEdge>& edges = trie[node];
        if (k + 1 == sequence.length) {
          edges.push_back({range, -1});
          break;
        }
        // Sequences come in increasing order, so a shared prefix is always the newest edge.
        if (!edges.empty() && edges.back().child >= 0 && edges.back().range == range) {
          node = static_cast<size_t>(edges.back().child);
          continue;
        }
        trie.emplace_back();
        trie[node].push_back({range, static_cast<int32_t>(trie.size() - 1)});
        node = trie.size() - 1;
      }
    }
    // Children are created after their parents: intern bottom-up, sharing equal nodes.
    CodePointAutomaton automaton;
    std::vector<uint32_t> state_of(trie.size(), 0);
    std::map<std::vector<uint32_t>, uint32_t> interned;
    for (size_t node = trie.size(); node-- > 0;) {
      std::vector<uint32_t> key;
      for (const TrieEdge& edge : trie[node]) {
        key.push_back(uint32_t{edge.range.first} << 8 | edge.range.last);
        key.push_back(edge.child < 0 ? kExit : state_of[static_cast<size_t>(edge.child)]);
      }
      auto [it, inserted] = interned.try_emplace(key, 0);
      if (inserted) {
        for (size_t i = 0; i < key.size(); i += 2) {
          automaton.edges.push_back(
              {static_cast<uint8_t>(key[i] >> 8), static_cast<uint8_t>(key[i] & 0xFF), key[i + 1]});
        }
        it->second = static_cast<uint32_t>(automaton.edge_end.size());
        automaton.edge_end.push_back(static_cast<uint32_t>(automaton.edges.size()));
      }
      state_of[node] = it->second;
    }
    automaton.entry = state_of[0];
    return automaton;
  }

  Nfa& nfa_;
  const Regex& regex_;
  std::string_view origin_;
  size_t max_states_;
  uint32_t terminal_;
  // By the node's set: the copies of a repeated node share it.
  std::unordered_map<const CodePointRanges*, CodePointAutomaton> code_point_automata_;
};

}  // namespace

void Nfa::add_terminal(const Regex& regex, std::string_view origin, size_t max_states) {
  const uint32_t start = TerminalCompiler(*this, regex, origin, max_states).compile_terminal();
  starts.push_back(start);
}

void Nfa::add_token_terminal(uint32_t id, bool negated, std::string_view origin,
                             size_t max_states) {
  if (states.size() + 2 * kTokenTerminalSize + 1 > max_states) {
    throw Error(
        fmt::format("{}: the token terminal exceeds {} automaton states", origin, max_states),
        ErrorCode::kLimit, parse_source_location(origin));
  }
  const auto terminal = static_cast<uint32_t>(starts.size());
  // Built backwards from the match, like TerminalCompiler's fragments.
  const auto add = [&](NfaKind kind, std::initializer_list<NfaEdge> out) {
    NfaState state;
    state.kind = kind;
    state.terminal = terminal;
    state.edge_begin = static_cast<uint32_t>(edges.size());
    edges.insert(edges.end(), out.begin(), out.end());
    state.edge_end = static_cast<uint32_t>(edges.size());
    states.push_back(state);
    return static_cast<uint32_t>(states.size() - 1);
  };
  const std::string bytes = token_terminal_bytes(id);
  const auto byte = [&](std::size_t i) { return static_cast<uint8_t>(bytes[i]); };
  const uint32_t match = add(NfaKind::kMatch, {});
  uint32_t entry = match;
  if (!negated) {
    for (std::size_t i = bytes.size(); i-- > 0;)
      entry = add(NfaKind::kBytes, {NfaEdge{byte(i), byte(i), entry}});
    starts.push_back(entry);
    return;
  }
  // Every id but `id`: while the id's bytes are followed, a different byte at position i leads to
  // any 4 - i - 1 further bytes; the last byte must differ.
  std::vector<uint32_t> any(kTokenTerminalSize - 1);  // any[k]: k more bytes, then the match
  any[0] = match;
  for (std::size_t k = 1; k < any.size(); ++k)
    any[k] = add(NfaKind::kBytes, {NfaEdge{0x00, 0xFF, any[k - 1]}});
  const auto others = [&](uint8_t b, uint32_t different, uint32_t same) {
    std::vector<NfaEdge> out;
    if (b > 0) out.push_back(NfaEdge{0x00, static_cast<uint8_t>(b - 1), different});
    if (same != UINT32_MAX) out.push_back(NfaEdge{b, b, same});
    if (b < 0xFF) out.push_back(NfaEdge{static_cast<uint8_t>(b + 1), 0xFF, different});
    return out;
  };
  uint32_t same = UINT32_MAX;  // nothing continues after the id's last byte
  for (std::size_t i = kTokenTerminalSize; i-- > 1;) {
    const std::vector<NfaEdge> out = others(byte(i), any[kTokenTerminalSize - 1 - i], same);
    NfaState state;
    state.kind = NfaKind::kBytes;
    state.terminal = terminal;
    state.edge_begin = static_cast<uint32_t>(edges.size());
    edges.insert(edges.end(), out.begin(), out.end());
    state.edge_end = static_cast<uint32_t>(edges.size());
    states.push_back(state);
    same = static_cast<uint32_t>(states.size() - 1);
  }
  entry = add(NfaKind::kBytes, {NfaEdge{kTokenTerminalLead, kTokenTerminalLead, same}});
  starts.push_back(entry);
}

void Nfa::add_byte_terminal(std::span<const std::pair<uint8_t, uint8_t>> ranges) {
  const auto terminal = static_cast<uint32_t>(starts.size());
  NfaState match;
  match.kind = NfaKind::kMatch;
  match.terminal = terminal;
  states.push_back(match);
  const auto match_state = static_cast<uint32_t>(states.size() - 1);
  NfaState entry;
  entry.kind = NfaKind::kBytes;
  entry.terminal = terminal;
  entry.edge_begin = static_cast<uint32_t>(edges.size());
  for (const auto& [first, last] : ranges) edges.push_back(NfaEdge{first, last, match_state});
  entry.edge_end = static_cast<uint32_t>(edges.size());
  states.push_back(entry);
  starts.push_back(static_cast<uint32_t>(states.size() - 1));
}

void Nfa::add_unmatchable_terminal() {
  NfaState dead;
  dead.kind = NfaKind::kBytes;
  dead.terminal = static_cast<uint32_t>(starts.size());
  dead.edge_begin = dead.edge_end = static_cast<uint32_t>(edges.size());
  states.push_back(dead);
  starts.push_back(static_cast<uint32_t>(states.size() - 1));
}

}  // namespace glrmask::lexer
