#include "lexer/terminal_dwa/lazy_terminal_dwa.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <set>

#include "lexer/regex/utf8_sequences.h"
#include "lib/core/error.h"

namespace glrmask::lexer {

namespace {

// The number of characters of a token that is plain string content, or 0.
std::size_t plain_length(std::string_view bytes) {
  std::size_t characters = 0;
  for (std::size_t i = 0; i < bytes.size();) {
    const auto lead = static_cast<unsigned char>(bytes[i]);
    std::size_t length = 0;
    char32_t c = 0;
    if (lead < 0x80) {
      length = 1;
      c = lead;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      c = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      c = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      c = lead & 0x07;
    } else {
      return 0;
    }
    if (i + length > bytes.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
      const auto continuation = static_cast<unsigned char>(bytes[i + k]);
      if ((continuation & 0xC0) != 0x80) return 0;
      c = (c << 6) | (continuation & 0x3F);
    }
    // Overlong forms, surrogates and values beyond U+10FFFF are not characters.
    if ((length == 3 && c < 0x800) || (length == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
        (c >= 0xD800 && c <= 0xDFFF))
      return 0;
    if (c < 0x20 || c == '"' || c == '\\') return 0;
    ++characters;
    i += length;
  }
  return characters;
}

// The UTF-8 encodings of the plain characters, as byte ranges position by position.
const std::vector<std::vector<ByteRange>>& plain_encodings() {
  static const std::vector<std::vector<ByteRange>> encodings = {
      {{0x20, 0x21}},
      {{0x23, 0x5B}},
      {{0x5D, 0x7F}},
      {{0xC2, 0xDF}, {0x80, 0xBF}},
      {{0xE0, 0xE0}, {0xA0, 0xBF}, {0x80, 0xBF}},
      {{0xE1, 0xEC}, {0x80, 0xBF}, {0x80, 0xBF}},
      {{0xED, 0xED}, {0x80, 0x9F}, {0x80, 0xBF}},
      {{0xEE, 0xEF}, {0x80, 0xBF}, {0x80, 0xBF}},
      {{0xF0, 0xF0}, {0x90, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}},
      {{0xF1, 0xF3}, {0x80, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}},
      {{0xF4, 0xF4}, {0x80, 0x8F}, {0x80, 0xBF}, {0x80, 0xBF}},
  };
  return encodings;
}

}  // namespace

PlainTokens::PlainTokens(const VocabularyTrie& trie)
    : plain_(trie.universe_size(), 0), other_below_(trie.num_nodes(), 0) {
  for (const TokenId token : trie.tokens()) {
    const std::size_t characters = plain_length(trie.bytes_of(token));
    if (characters == 0) continue;
    if (by_length_.size() <= characters) by_length_.resize(characters + 1);
    by_length_[characters].add(token);
    plain_[token] = 1;
    ++plain_count_;
  }
  for (RoaringBitmap& set : by_length_) set.runOptimize();
  // Nodes are numbered breadth first: children after parents, so one backward pass suffices.
  for (uint32_t node = trie.num_nodes(); node-- > 0;) {
    bool other = false;
    for (const TokenId token : trie.tokens_at(node)) other = other || !plain_[token];
    for (uint32_t child = trie.first_child(node); child < trie.child_end(node) && !other; ++child)
      other = other_below_[child] != 0;
    other_below_[node] = other ? 1 : 0;
  }
}

LazyTerminalDwa::LazyTerminalDwa(const LexerDfa& dfa, const ForkFutures& futures,
                                 const VocabularyTrie& trie, const PlainTokens* plain)
    : dfa_(dfa),
      futures_(futures),
      trie_(trie),
      plain_(plain),
      walker_(dfa, trie),
      tries_(futures.size()),
      plain_successor_(dfa.num_states(), -2) {}

std::optional<uint32_t> LazyTerminalDwa::plain_successor(uint32_t state) {
  int64_t& cached = plain_successor_[state];
  if (cached == -2) {
    std::set<uint32_t> ends;
    bool uniform = true;
    // Every encoding, every byte of each range (the DFA has at most a few classes per range,
    // but 4-byte encodings are only stepped through distinct intermediate states).
    for (const std::vector<ByteRange>& encoding : plain_encodings()) {
      std::set<uint32_t> states = {state};
      for (const ByteRange& range : encoding) {
        std::set<uint32_t> next;
        for (const uint32_t s : states) {
          for (int byte = range.first; byte <= range.last; ++byte) {
            const uint32_t t = s == LexerDfa::kDeadState ? LexerDfa::kDeadState
                                                         : dfa_.next(s, static_cast<uint8_t>(byte));
            if (t != LexerDfa::kDeadState && dfa_.label(t) != LexerDfa::kNoLabel) uniform = false;
            next.insert(t);
          }
        }
        states = std::move(next);
      }
      ends.insert(states.begin(), states.end());
      if (!uniform || ends.size() > 1) break;
    }
    cached = uniform && ends.size() == 1 ? static_cast<int64_t>(*ends.begin()) : -1;
  }
  if (cached < 0) return std::nullopt;
  return static_cast<uint32_t>(cached);
}

const LazyForkTrie& LazyTerminalDwa::trie(ForkFutures::Id fork) {
  if (fork >= tries_.size())
    throw Error(fmt::format("lazy Terminal DWA: no fork {}", fork), ErrorCode::kInvalidArgument);
  if (!tries_[fork]) {
    const auto started = std::chrono::steady_clock::now();
    tries_[fork] = build(fork);
    stats_.forks_built += 1;
    stats_.steps += tries_[fork]->steps;
    stats_.build_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  return *tries_[fork];
}

std::unique_ptr<LazyForkTrie> LazyTerminalDwa::build(ForkFutures::Id fork_id) {
  const LexerFork& fork = futures_.fork(fork_id);
  // The plain-token shortcut: the fork's state and the states k plain characters further map
  // every plain character alike, so the plain tokens go to the end fork k characters on.
  if (plain_ && fork.inhibitors.empty()) {
    std::vector<LazyDwaGroup> shortcut;
    uint32_t state = fork.state;
    bool applies = true;
    const std::vector<RoaringBitmap>& by_length = plain_->by_length();
    for (std::size_t k = 1; k < by_length.size(); ++k) {
      const std::optional<uint32_t> next = plain_successor(state);
      if (!next) {
        applies = false;
        break;
      }
      state = *next;
      if (state == LexerDfa::kDeadState) break;  // longer plain tokens die
      const ForkFutures::Id end = futures_.uninhibited(state);
      if (end == ForkFutures::kUnknown) {
        applies = false;
        break;
      }
      if (!by_length[k].isEmpty()) shortcut.push_back({end, &by_length[k]});
    }
    if (applies) {
      WalkFilter filter;
      filter.skip_token = &plain_->plain_flags();
      filter.enter_node = &plain_->other_below_flags();
      stats_.plain_forks += 1;
      return from_walk(walker_.walk(VocabularyTrie::kRoot, fork, true, 0, &filter),
                       std::move(shortcut));
    }
  }
  return from_walk(walker_.walk(VocabularyTrie::kRoot, fork), {});
}

std::unique_ptr<LazyForkTrie> LazyTerminalDwa::from_walk(SubtrieWalk walk,
                                                         std::vector<LazyDwaGroup> shortcut) {
  auto out = std::make_unique<LazyForkTrie>();
  out->steps = walk.steps;
  const std::size_t n = walk.parent.size();
  std::vector<std::vector<uint32_t>> children(n);
  for (uint32_t node = 1; node < n; ++node) children[walk.parent[node]].push_back(node);
  std::vector<std::vector<LazyDwaGroup>> groups(n);
  for (SubtrieWalk::Group& group : walk.groups) {
    if (group.tokens.isEmpty()) continue;
    const std::optional<ForkFutures::Id> end = futures_.find(walk.ends[group.end]);
    if (!end)
      throw Error(fmt::format("lazy Terminal DWA: a token reaches {}, which no bytes reach",
                              describe_fork(walk.ends[group.end])),
                  ErrorCode::kInternal);
    out->owned.push_back(std::move(group.tokens));
    groups[group.node].push_back({*end, &out->owned.back()});
  }
  for (LazyDwaGroup& group : shortcut) groups[0].push_back(group);
  out->nodes.resize(n);
  for (uint32_t node = 0; node < n; ++node) {
    LazyDwaNode& entry = out->nodes[node];
    entry.label = walk.label[node];
    entry.children_begin = static_cast<uint32_t>(out->children.size());
    out->children.insert(out->children.end(), children[node].begin(), children[node].end());
    entry.children_end = static_cast<uint32_t>(out->children.size());
    entry.groups_begin = static_cast<uint32_t>(out->groups.size());
    out->groups.insert(out->groups.end(), groups[node].begin(), groups[node].end());
    entry.groups_end = static_cast<uint32_t>(out->groups.size());
  }
  return out;
}

}  // namespace glrmask::lexer
