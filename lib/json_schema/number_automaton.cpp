#include "lib/json_schema/number_automaton.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>

#include "lib/core/error.h"

namespace glrmask::json_schema {

namespace {

constexpr int kMinusSymbol = 0;
constexpr int kPointSymbol = 11;
constexpr std::size_t kMaxExploredStates = 200000;

int digit_of(int symbol) {
  return symbol - 1;
}
bool is_digit(int symbol) {
  return symbol >= 1 && symbol <= 10;
}

// Where a plain decimal's spelling stands.
enum class Phase : std::uint8_t { kStart, kMinus, kZero, kInteger, kPoint, kFraction };

// The syntax step shared by every automaton; nullopt when the symbol cannot follow.
std::optional<Phase> syntax_step(Phase phase, int symbol) {
  switch (phase) {
    case Phase::kStart:
      if (symbol == kMinusSymbol) return Phase::kMinus;
      [[fallthrough]];
    case Phase::kMinus:
      if (symbol == 1) return Phase::kZero;
      if (is_digit(symbol)) return Phase::kInteger;
      return std::nullopt;
    case Phase::kZero:
      if (symbol == kPointSymbol) return Phase::kPoint;
      return std::nullopt;
    case Phase::kInteger:
      if (is_digit(symbol)) return Phase::kInteger;
      if (symbol == kPointSymbol) return Phase::kPoint;
      return std::nullopt;
    case Phase::kPoint:
    case Phase::kFraction:
      if (is_digit(symbol)) return Phase::kFraction;
      return std::nullopt;
  }
  return std::nullopt;
}

bool syntax_accepts(Phase phase) {
  return phase == Phase::kZero || phase == Phase::kInteger || phase == Phase::kFraction;
}

}  // namespace

class NumberAutomatonBuilder {
 public:
  // Breadth-first over the states `step` reaches from `start`.
  template <class State, class Step, class Accept>
  static NumberAutomaton explore(const State& start, Step step, Accept accept) {
    NumberAutomaton out;
    std::map<State, int> ids;
    std::vector<State> states;
    auto intern = [&](const State& state) {
      auto [it, inserted] = ids.try_emplace(state, static_cast<int>(states.size()));
      if (inserted) {
        if (states.size() >= kMaxExploredStates)
          throw Error("a number constraint needs too many automaton states", ErrorCode::kLimit);
        states.push_back(state);
      }
      return it->second;
    };
    out.start_ = intern(start);
    for (std::size_t i = 0; i < states.size(); ++i) {
      std::array<int, NumberAutomaton::kSymbols> row{};
      for (int symbol = 0; symbol < NumberAutomaton::kSymbols; ++symbol) {
        const std::optional<State> next = step(states[i], symbol);
        row[symbol] = next ? intern(*next) : NumberAutomaton::kDead;
      }
      out.next_.push_back(row);
      out.accepting_.push_back(accept(states[i]) ? 1 : 0);
    }
    return out.minimized();
  }
};

NumberAutomaton NumberAutomaton::any() {
  return NumberAutomatonBuilder::explore(
      Phase::kStart, [](Phase p, int s) { return syntax_step(p, s); }, syntax_accepts);
}

NumberAutomaton NumberAutomaton::compared(const ExactDecimal& bound, std::string_view op) {
  const std::string& bound_integer = bound.integer;
  const std::string& bound_fraction = bound.fraction;
  const std::size_t m = bound_integer.size();
  struct State {
    Phase phase = Phase::kStart;
    bool negative = false;  // written with '-'
    std::size_t count = 0;  // integer digits read, held at m + 1
    int lex = 0;            // the integer digits against the bound's first ones
    int integer_cmp = 2;    // 2: not decided yet (still in the integer part)
    std::size_t at = 0;     // fraction digits compared, held at the bound's fraction length
    int fraction_cmp = 0;
    bool zero = true;  // every digit so far is 0
    auto operator<=>(const State&) const = default;
  };
  auto integer_comparison = [&](const State& s) {
    if (s.count < m) return -1;
    if (s.count > m) return 1;
    return s.lex;
  };
  auto step = [&](const State& s, int symbol) -> std::optional<State> {
    const std::optional<Phase> phase = syntax_step(s.phase, symbol);
    if (!phase) return std::nullopt;
    State t = s;
    t.phase = *phase;
    if (symbol == kMinusSymbol) {
      t.negative = true;
    } else if (symbol == kPointSymbol) {
      t.integer_cmp = integer_comparison(s);
    } else if (*phase == Phase::kZero || *phase == Phase::kInteger) {
      const char digit = static_cast<char>('0' + digit_of(symbol));
      if (digit != '0') t.zero = false;
      if (t.count < m && t.lex == 0)
        t.lex = digit < bound_integer[t.count] ? -1 : digit > bound_integer[t.count] ? 1 : 0;
      if (t.count <= m) ++t.count;
    } else {  // a fraction digit
      const char digit = static_cast<char>('0' + digit_of(symbol));
      if (digit != '0') t.zero = false;
      if (t.integer_cmp == 0 && t.fraction_cmp == 0) {
        const char against = t.at < bound_fraction.size() ? bound_fraction[t.at] : '0';
        t.fraction_cmp = digit < against ? -1 : digit > against ? 1 : 0;
        if (t.at < bound_fraction.size()) ++t.at;
      }
    }
    return t;
  };
  auto outcome = [&](const State& s) {
    int magnitude_cmp = s.integer_cmp == 2 ? integer_comparison(s) : s.integer_cmp;
    if (magnitude_cmp == 0) {
      magnitude_cmp = s.fraction_cmp != 0 ? s.fraction_cmp : s.at < bound_fraction.size() ? -1 : 0;
    }
    if (s.negative && s.zero) return bound.negative ? 1 : (bound.is_zero() ? 0 : -1);
    if (!s.negative) return bound.negative ? 1 : magnitude_cmp;
    return bound.negative ? -magnitude_cmp : -1;
  };
  auto accept = [&](const State& s) {
    if (!syntax_accepts(s.phase)) return false;
    const int c = outcome(s);
    if (op == "<") return c < 0;
    if (op == "<=") return c <= 0;
    if (op == ">") return c > 0;
    if (op == ">=") return c >= 0;
    return c == 0;
  };
  return NumberAutomatonBuilder::explore(State{}, step, accept);
}

NumberAutomaton NumberAutomaton::multiple_of(const ScaledInteger& m) {
  struct State {
    Phase phase = Phase::kStart;
    std::uint64_t remainder = 0;  // of the digits read so far (fraction up to k digits) mod p
    std::size_t fraction = 0;     // fraction digits counted, at most k
    bool tail_zero = true;        // fraction digits beyond the k-th are all 0
    auto operator<=>(const State&) const = default;
  };
  auto step = [&](const State& s, int symbol) -> std::optional<State> {
    const std::optional<Phase> phase = syntax_step(s.phase, symbol);
    if (!phase) return std::nullopt;
    State t = s;
    t.phase = *phase;
    if (!is_digit(symbol)) return t;
    const auto digit = static_cast<std::uint64_t>(digit_of(symbol));
    if (*phase == Phase::kFraction) {
      if (t.fraction == m.k) {
        t.tail_zero = t.tail_zero && digit == 0;
        return t;
      }
      ++t.fraction;
    }
    t.remainder = (t.remainder * 10 + digit) % m.p;
    return t;
  };
  auto accept = [&](const State& s) {
    if (!syntax_accepts(s.phase) || !s.tail_zero) return false;
    std::uint64_t r = s.remainder;
    for (std::size_t i = s.fraction; i < m.k; ++i) r = (r * 10) % m.p;
    return r == 0;
  };
  return NumberAutomatonBuilder::explore(State{}, step, accept);
}

NumberAutomaton NumberAutomaton::without_fraction() {
  return NumberAutomatonBuilder::explore(
      Phase::kStart,
      [](Phase p, int s) -> std::optional<Phase> {
        if (s == kPointSymbol) return std::nullopt;
        return syntax_step(p, s);
      },
      syntax_accepts);
}

template <class Combine>
NumberAutomaton NumberAutomaton::product(const NumberAutomaton& other, Combine combine) const {
  return NumberAutomatonBuilder::explore(
      std::pair<int, int>{start_, other.start_},
      [&](const std::pair<int, int>& s, int symbol) -> std::optional<std::pair<int, int>> {
        const int a = s.first == kDead ? kDead : next_[s.first][symbol];
        const int b = s.second == kDead ? kDead : other.next_[s.second][symbol];
        if (a == kDead && b == kDead) return std::nullopt;
        return std::pair<int, int>{a, b};
      },
      [&](const std::pair<int, int>& s) {
        const bool a = s.first != kDead && accepting_[s.first];
        const bool b = s.second != kDead && other.accepting_[s.second];
        return combine(a, b);
      });
}

NumberAutomaton NumberAutomaton::intersect(const NumberAutomaton& other) const {
  return product(other, [](bool a, bool b) { return a && b; });
}

NumberAutomaton NumberAutomaton::unite(const NumberAutomaton& other) const {
  return product(other, [](bool a, bool b) { return a || b; });
}

NumberAutomaton NumberAutomaton::complement() const {
  return any().product(*this, [](bool a, bool b) { return a && !b; });
}

bool NumberAutomaton::empty() const {
  return start_ == kDead;
}

bool NumberAutomaton::accepts(std::string_view text) const {
  int state = start_;
  for (const char c : text) {
    if (state == kDead) return false;
    int symbol = -1;
    if (c == '-') symbol = kMinusSymbol;
    if (c == '.') symbol = kPointSymbol;
    if (c >= '0' && c <= '9') symbol = 1 + (c - '0');
    if (symbol < 0) return false;
    state = next_[state][symbol];
  }
  return state != kDead && accepting_[state];
}

NumberAutomaton NumberAutomaton::minimized() const {
  const int n = static_cast<int>(next_.size());
  if (start_ == kDead || n == 0) return NumberAutomaton{};
  // Trim: reachable from the start and able to reach acceptance.
  std::vector<char> reachable(n, 0);
  std::vector<int> stack = {start_};
  reachable[start_] = 1;
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    for (const int t : next_[s])
      if (t != kDead && !reachable[t]) {
        reachable[t] = 1;
        stack.push_back(t);
      }
  }
  std::vector<char> live(n, 0);
  for (int s = 0; s < n; ++s) live[s] = reachable[s] && accepting_[s];
  for (bool changed = true; changed;) {
    changed = false;
    for (int s = 0; s < n; ++s) {
      if (live[s] || !reachable[s]) continue;
      for (const int t : next_[s])
        if (t != kDead && live[t]) {
          live[s] = 1;
          changed = true;
          break;
        }
    }
  }
  if (!live[start_]) return NumberAutomaton{};
  // Moore's refinement over the live states (the dead state is its own block, -1).
  std::vector<int> block(n, -1);
  for (int s = 0; s < n; ++s)
    if (live[s]) block[s] = accepting_[s] ? 1 : 0;
  while (true) {
    std::map<std::vector<int>, int> signatures;
    std::vector<int> refined(n, -1);
    for (int s = 0; s < n; ++s) {
      if (!live[s]) continue;
      std::vector<int> signature = {block[s]};
      for (const int t : next_[s]) signature.push_back(t != kDead && live[t] ? block[t] : -1);
      refined[s] =
          signatures.try_emplace(signature, static_cast<int>(signatures.size())).first->second;
    }
    const bool stable = static_cast<int>(signatures.size()) == [&] {
      std::vector<int> seen;
      for (int s = 0; s < n; ++s)
        if (live[s]) seen.push_back(block[s]);
      std::sort(seen.begin(), seen.end());
      return static_cast<int>(std::unique(seen.begin(), seen.end()) - seen.begin());
    }();
    block = std::move(refined);
    if (stable) break;
  }
  // Number the blocks breadth first from the start.
  NumberAutomaton out;
  std::map<int, int> number;
  std::vector<int> member;
  std::deque<int> queue = {start_};
  number[block[start_]] = 0;
  member.push_back(start_);
  while (!queue.empty()) {
    const int s = queue.front();
    queue.pop_front();
    for (const int t : next_[s]) {
      if (t == kDead || !live[t]) continue;
      if (number.try_emplace(block[t], static_cast<int>(member.size())).second) {
        member.push_back(t);
        queue.push_back(t);
      }
    }
  }
  for (const int s : member) {
    std::array<int, kSymbols> row{};
    for (int symbol = 0; symbol < kSymbols; ++symbol) {
      const int t = next_[s][symbol];
      row[symbol] = t == kDead || !live[t] ? kDead : number[block[t]];
    }
    out.next_.push_back(row);
    out.accepting_.push_back(accepting_[s]);
  }
  out.start_ = 0;
  return out;
}

// The regex writer of the file comment: Accept(q, S) = Loop(q)* Exit(q) over allowed states S.
class GreedyRegexWriter {
 public:
  GreedyRegexWriter(const NumberAutomaton& automaton, std::size_t max_length)
      : a_(automaton), max_length_(max_length) {}

  std::optional<std::string> write() {
    if (a_.empty()) return std::nullopt;
    std::vector<char> all(a_.next_.size(), 1);
    try {
      const std::optional<std::string> regex = accept(a_.start_, all);
      return regex;
    } catch (const TooLong&) {
      return std::nullopt;
    }
  }

 private:
  struct TooLong {};
  using Set = std::vector<char>;

  static std::string symbol_class(const std::vector<int>& symbols) {
    std::string body;
    int i = 0;
    const int n = static_cast<int>(symbols.size());
    while (i < n) {
      const int s = symbols[i];
      if (s == kMinusSymbol) {
        body += "\\-";
        ++i;
      } else if (s == kPointSymbol) {
        body += "\\.";
        ++i;
      } else {
        int j = i;
        while (j + 1 < n && symbols[j + 1] == symbols[j] + 1 && is_digit(symbols[j + 1])) ++j;
        const char first = static_cast<char>('0' + digit_of(s));
        const char last = static_cast<char>('0' + digit_of(symbols[j]));
        if (j == i)
          body += first;
        else if (j == i + 1)
          body += std::string(1, first) + last;
        else
          body += std::string(1, first) + "-" + last;
        i = j + 1;
      }
    }
    if (symbols.size() == 1) return body;
    return "[" + body + "]";
  }

  // The outgoing transitions of q grouped by target, in target order.
  std::vector<std::pair<int, std::string>> edges(int q) const {
    std::map<int, std::vector<int>> by_target;
    for (int symbol = 0; symbol < NumberAutomaton::kSymbols; ++symbol)
      if (a_.next_[q][symbol] != NumberAutomaton::kDead)
        by_target[a_.next_[q][symbol]].push_back(symbol);
    std::vector<std::pair<int, std::string>> out;
    for (const auto& [target, symbols] : by_target) out.emplace_back(target, symbol_class(symbols));
    return out;
  }

  std::string join(const std::vector<std::string>& alternatives) {
    std::string out;
    for (std::size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
    if (alternatives.size() > 1) out = "(?:" + out + ")";
    if (out.size() > max_length_) throw TooLong{};
    return out;
  }

  static std::string key(char kind, int q, int target, const Set& set) {
    std::string k = fmt::format("{}:{}:{}:", kind, q, target);
    k.append(set.begin(), set.end());
    return k;
  }

  std::string star(const std::optional<std::string>& loop) {
    if (!loop) return "";
    return "(?:" + *loop + ")*";
  }

  // Words from q to acceptance, later states within `allowed` (q may recur if allowed).
  std::optional<std::string> accept(int q, const Set& allowed) {
    const std::string k = key('A', q, -1, allowed);
    if (auto found = memo_.find(k); found != memo_.end()) return found->second;
    std::optional<std::string> result;
    if (allowed[q]) {
      Set rest = allowed;
      rest[q] = 0;
      const std::optional<std::string> loop = turn(q, rest);
      const std::optional<std::string> exit = leave(q, rest);
      if (exit) result = star(loop) + *exit;
    } else {
      result = leave(q, allowed);
    }
    memo_[k] = result;
    return result;
  }

  // Words from q to acceptance that never come back to q (q is not in `allowed`).
  std::optional<std::string> leave(int q, const Set& allowed) {
    std::vector<std::string> alternatives;
    for (const auto& [target, chars] : edges(q)) {
      if (target == q || !allowed[target]) continue;
      if (const std::optional<std::string> rest = accept(target, allowed))
        alternatives.push_back(chars + *rest);
    }
    if (a_.accepting_[q]) alternatives.emplace_back();  // stopping comes last
    if (alternatives.empty()) return std::nullopt;
    return join(alternatives);
  }

  // One turn of the loop through q: words from q back to q, in between only `allowed`.
  std::optional<std::string> turn(int q, const Set& allowed) {
    std::vector<std::string> alternatives;
    for (const auto& [target, chars] : edges(q)) {
      if (target == q) {
        alternatives.push_back(chars);
      } else if (allowed[target]) {
        if (const std::optional<std::string> rest = path(target, q, allowed))
          alternatives.push_back(chars + *rest);
      }
    }
    if (alternatives.empty()) return std::nullopt;
    return join(alternatives);
  }

  // Words from t to the first arrival at q, in between only `allowed` (t is in it, q is not).
  std::optional<std::string> path(int t, int q, const Set& allowed) {
    const std::string k = key('P', t, q, allowed);
    if (auto found = memo_.find(k); found != memo_.end()) return found->second;
    Set rest = allowed;
    rest[t] = 0;
    const std::optional<std::string> loop = turn(t, rest);
    std::vector<std::string> alternatives;
    for (const auto& [target, chars] : edges(t)) {
      if (target == q) {
        alternatives.push_back(chars);
      } else if (target != t && rest[target]) {
        if (const std::optional<std::string> further = path(target, q, rest))
          alternatives.push_back(chars + *further);
      }
    }
    std::optional<std::string> result;
    if (!alternatives.empty()) result = star(loop) + join(alternatives);
    memo_[k] = result;
    return result;
  }

  const NumberAutomaton& a_;
  std::size_t max_length_;
  std::map<std::string, std::optional<std::string>> memo_;
};

std::optional<std::string> NumberAutomaton::to_greedy_regex(std::size_t max_length) const {
  return GreedyRegexWriter(*this, max_length).write();
}

}  // namespace glrmask::json_schema
