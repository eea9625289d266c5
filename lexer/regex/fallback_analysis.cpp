#include "lexer/regex/fallback_analysis.h"

#include <fmt/format.h>

#include <array>
#include <set>
#include <utility>

#include "lib/core/escape.h"

namespace glrmask::lexer {
namespace {

// Bytes in the order examples prefer them: printable ASCII first, so reports stay readable.
const std::array<uint8_t, 256>& preferred_bytes() {
  static const std::array<uint8_t, 256> order = [] {
    std::array<uint8_t, 256> bytes{};
    size_t i = 0;
    for (int b = 0x20; b < 0x7F; ++b) bytes[i++] = static_cast<uint8_t>(b);
    for (int b = 0; b < 256; ++b) {
      if (b < 0x20 || b >= 0x7F) bytes[i++] = static_cast<uint8_t>(b);
    }
    return bytes;
  }();
  return order;
}

}  // namespace

std::vector<UnboundedFallback> find_unbounded_fallbacks(const LexerDfa& dfa) {
  const uint32_t n = dfa.num_states();
  auto waiting = [&](uint32_t s) {  // live, not accepting: bytes here go into `pending`
    return s != LexerDfa::kDeadState && dfa.label(s) == LexerDfa::kNoLabel;
  };

  // Peel waiting states with no waiting successor until none is left: the survivors are exactly
  // the waiting states with an infinite path through waiting states, i.e. that reach a cycle.
  std::vector<std::vector<uint32_t>> predecessors(n);
  std::vector<uint32_t> out_degree(n, 0);
  for (uint32_t s = 0; s < n; ++s) {
    if (!waiting(s)) continue;
    std::set<uint32_t> successors;
    for (int b = 0; b < 256; ++b) {
      const uint32_t t = dfa.next(s, static_cast<uint8_t>(b));
      if (waiting(t)) successors.insert(t);
    }
    out_degree[s] = static_cast<uint32_t>(successors.size());
    for (uint32_t t : successors) predecessors[t].push_back(s);
  }
  std::vector<bool> survives(n, false);
  std::vector<uint32_t> queue;
  for (uint32_t s = 0; s < n; ++s) {
    survives[s] = waiting(s);
    if (waiting(s) && out_degree[s] == 0) queue.push_back(s);
  }
  for (size_t i = 0; i < queue.size(); ++i) {
    survives[queue[i]] = false;
    for (uint32_t p : predecessors[queue[i]]) {
      if (--out_degree[p] == 0) queue.push_back(p);
    }
  }

  // Shortest (readable) way from the start to every state.
  constexpr uint32_t kUnseen = UINT32_MAX;
  std::vector<uint32_t> parent(n, kUnseen);
  std::vector<uint8_t> via(n, 0);
  std::vector<uint32_t> bfs{dfa.start_state()};
  parent[dfa.start_state()] = dfa.start_state();
  for (size_t i = 0; i < bfs.size(); ++i) {
    for (uint8_t b : preferred_bytes()) {
      const uint32_t t = dfa.next(bfs[i], b);
      if (t == LexerDfa::kDeadState || parent[t] != kUnseen) continue;
      parent[t] = bfs[i];
      via[t] = b;
      bfs.push_back(t);
    }
  }
  auto path_to = [&](uint32_t s) {
    std::string bytes;
    for (; s != dfa.start_state(); s = parent[s])
      bytes.insert(bytes.begin(), static_cast<char>(via[s]));
    return bytes;
  };

  std::vector<UnboundedFallback> reports;
  std::set<std::pair<LabelId, std::vector<uint32_t>>> reported;
  for (uint32_t accepting = 1; accepting < n; ++accepting) {
    if (dfa.label(accepting) == LexerDfa::kNoLabel || parent[accepting] == kUnseen) continue;
    for (uint8_t b : preferred_bytes()) {
      const uint32_t first = dfa.next(accepting, b);
      if (!survives[first]) continue;
      const auto viable = dfa.viable_terminals(first);
      std::vector<uint32_t> extending(viable.begin(), viable.end());
      if (!reported.emplace(dfa.label(accepting), extending).second) continue;

      UnboundedFallback report;
      report.accepted = dfa.label(accepting);
      report.extending_terminals = std::move(extending);
      report.example = path_to(accepting);
      report.accepted_length = report.example.size();
      report.example.push_back(static_cast<char>(b));
      // Walk through surviving states (each has a surviving successor) until one repeats.
      std::vector<size_t> visited_at(n, SIZE_MAX);
      uint32_t s = first;
      while (visited_at[s] == SIZE_MAX) {
        visited_at[s] = report.example.size();
        for (uint8_t c : preferred_bytes()) {
          const uint32_t t = dfa.next(s, c);
          if (survives[t]) {
            report.example.push_back(static_cast<char>(c));
            s = t;
            break;
          }
        }
      }
      report.cycle_begin = visited_at[s];
      reports.push_back(std::move(report));
    }
  }
  return reports;
}

std::string describe(const LexerDfa& dfa, const UnboundedFallback& fallback) {
  std::string extending;
  for (uint32_t terminal : fallback.extending_terminals) {
    if (!extending.empty()) extending += '|';
    extending += dfa.terminals()[terminal].name;
  }
  const std::string_view example = fallback.example;
  return fmt::format(
      "after {} {}, the lexer can read {} then {} any number of times without accepting while "
      "the lexeme could still become {}: the fall-back buffer is unbounded",
      dfa.describe_label(fallback.accepted),
      escape_bytes(example.substr(0, fallback.accepted_length)),
      escape_bytes(example.substr(fallback.accepted_length,
                                  fallback.cycle_begin - fallback.accepted_length)),
      escape_bytes(example.substr(fallback.cycle_begin)), extending);
}

}  // namespace glrmask::lexer
