#include "lib/json_schema/backtracking_matcher.h"

#include <fmt/format.h>

#include <bitset>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "lib/core/error.h"
#include "lib/json_schema/document.h"

namespace glrmask::json_schema {
namespace {

using CharSet = std::bitset<128>;

// Parenthesis nesting a pattern may have: the parser and the code generator recurse on it.
constexpr int kMaxNesting = 200;
constexpr std::size_t kUnbounded = SIZE_MAX;

struct Node {
  enum class Kind : std::uint8_t {
    kEmpty,
    kSet,     // one character of `set`
    kConcat,  // children in order
    kAlternation,
    kGroup,   // children[0]; `group` >= 1 when it captures
    kRepeat,  // children[0] between min and max (kUnbounded) times
    kStart,   // ^
    kEnd,     // $
    kWordBoundary,
    kNotWordBoundary,
    kLook,  // children[0] as a lookahead or lookbehind, maybe negated
    kBackreference,
  };
  Kind kind = Kind::kEmpty;
  CharSet set;
  std::vector<Node> children;
  std::size_t min = 1;
  std::size_t max = 1;
  bool greedy = true;
  bool behind = false;
  bool negated = false;
  int group = 0;        // kGroup: its number (0: not capturing); kBackreference: the target
  std::string name;     // kBackreference by name, resolved after the parse
  int first_group = 0;  // the groups inside this node: [first_group, end_group)
  int end_group = 0;
};

CharSet range_set(int first, int last) {
  CharSet set;
  for (int c = first; c <= last && c < 128; ++c) set.set(static_cast<std::size_t>(c));
  return set;
}

CharSet digit_set() {
  return range_set('0', '9');
}
CharSet word_set() {
  return range_set('a', 'z') | range_set('A', 'Z') | digit_set() | range_set('_', '_');
}
CharSet space_set() {
  return range_set('\t', '\r') | range_set(' ', ' ');
}

class Parser {
 public:
  Parser(std::string_view pattern, const std::string& where) : pattern_(pattern), where_(where) {}

  Node parse() {
    Node root = disjunction(0);
    if (pos_ < pattern_.size()) fail("unmatched ')'");
    resolve(root);
    return root;
  }
  int group_count() const { return groups_; }

 private:
  [[noreturn]] void fail(const std::string& reason) const {
    throw Error(fmt::format("{}: pattern column {}: {}", where_, pos_ + 1, reason),
                ErrorCode::kSchema, schema_location(where_));
  }
  bool at_end() const { return pos_ >= pattern_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < pattern_.size() ? pattern_[pos_ + ahead] : '\0';
  }
  bool eat(std::string_view text) {
    if (pattern_.substr(pos_, text.size()) != text) return false;
    pos_ += text.size();
    return true;
  }

  Node disjunction(int depth) {
    if (depth > kMaxNesting) fail(fmt::format("groups nested more than {} deep", kMaxNesting));
    const int first = groups_ + 1;
    Node result;
    result.kind = Node::Kind::kAlternation;
    result.children.push_back(alternative(depth));
    while (eat("|")) result.children.push_back(alternative(depth));
    if (result.children.size() == 1) {
      Node only = std::move(result.children[0]);  // moved out first: it lives inside `result`
      result = std::move(only);
    }
    result.first_group = first;
    result.end_group = groups_ + 1;
    return result;
  }

  Node alternative(int depth) {
    Node result;
    result.kind = Node::Kind::kConcat;
    while (!at_end() && peek() != '|' && peek() != ')') result.children.push_back(term(depth));
    return result;
  }

  Node term(int depth) {
    const int first = groups_ + 1;
    Node atom_node;
    bool quantifiable = true;
    if (eat("^")) {
      atom_node.kind = Node::Kind::kStart;
      quantifiable = false;
    } else if (eat("$")) {
      atom_node.kind = Node::Kind::kEnd;
      quantifiable = false;
    } else if (eat("\\b")) {
      atom_node.kind = Node::Kind::kWordBoundary;
      quantifiable = false;
    } else if (eat("\\B")) {
      atom_node.kind = Node::Kind::kNotWordBoundary;
      quantifiable = false;
    } else if (peek() == '(' && peek(1) == '?' &&
               (peek(2) == '=' || peek(2) == '!' ||
                (peek(2) == '<' && (peek(3) == '=' || peek(3) == '!')))) {
      pos_ += 2;
      atom_node.kind = Node::Kind::kLook;
      atom_node.behind = eat("<");
      atom_node.negated = peek() == '!';
      ++pos_;
      atom_node.children.push_back(disjunction(depth + 1));
      if (!eat(")")) fail("missing ')'");
      quantifiable = false;
    } else {
      atom_node = atom(depth);
    }
    atom_node.first_group = first;
    atom_node.end_group = groups_ + 1;
    if (!quantifiable) {
      if (peek() == '*' || peek() == '+' || peek() == '?') fail("nothing to repeat");
      return atom_node;
    }
    return quantified(std::move(atom_node));
  }

  std::optional<std::size_t> number() {
    const std::size_t begin = pos_;
    std::size_t value = 0;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      value = value > 100000000 ? value : value * 10 + static_cast<std::size_t>(peek() - '0');
      ++pos_;
    }
    if (pos_ == begin) return std::nullopt;
    return value;
  }

  Node quantified(Node atom_node) {
    std::size_t min = 1;
    std::size_t max = 1;
    if (eat("*")) {
      min = 0;
      max = kUnbounded;
    } else if (eat("+")) {
      max = kUnbounded;
    } else if (eat("?")) {
      min = 0;
    } else if (peek() == '{') {
      // Annex B: a brace that does not start a well-formed quantifier is a literal.
      const std::size_t start = pos_;
      ++pos_;
      const auto low = number();
      std::optional<std::size_t> high = low;
      bool ok = low.has_value();
      if (ok && eat(",")) high = peek() == '}' ? std::optional<std::size_t>(kUnbounded) : number();
      ok = ok && high.has_value() && eat("}");
      if (!ok) {
        pos_ = start;
        return atom_node;
      }
      if (*high < *low) fail("numbers out of order in {} quantifier");
      min = *low;
      max = *high;
    } else {
      return atom_node;
    }
    Node repeat;
    repeat.kind = Node::Kind::kRepeat;
    repeat.min = min;
    repeat.max = max;
    repeat.greedy = !eat("?");
    repeat.first_group = atom_node.first_group;
    repeat.end_group = atom_node.end_group;
    repeat.children.push_back(std::move(atom_node));
    if (peek() == '*' || peek() == '+' || peek() == '?') fail("nothing to repeat");
    return repeat;
  }

  Node set_node(CharSet set) {
    Node node;
    node.kind = Node::Kind::kSet;
    node.set = set;
    return node;
  }

  Node atom(int depth) {
    const char c = peek();
    if (c == '.') {
      ++pos_;
      CharSet any = range_set(0, 127);
      any.reset('\n');
      any.reset('\r');
      return set_node(any);
    }
    if (c == '(') {
      ++pos_;
      Node group;
      group.kind = Node::Kind::kGroup;
      if (eat("?:")) {
        group.group = 0;
      } else {
        if (eat("?<")) {
          const std::size_t end = pattern_.find('>', pos_);
          if (end == std::string_view::npos || end == pos_) fail("malformed group name");
          names_.emplace_back(std::string(pattern_.substr(pos_, end - pos_)), groups_ + 1);
          pos_ = end + 1;
        } else if (peek() == '?') {
          fail("unknown group kind");
        }
        group.group = ++groups_;
      }
      group.children.push_back(disjunction(depth + 1));
      if (!eat(")")) fail("missing ')'");
      return group;
    }
    if (c == '[') return set_node(char_class());
    if (c == '*' || c == '+' || c == '?') fail("nothing to repeat");
    if (c == ')') fail("unmatched ')'");
    if (c == '\\') {
      ++pos_;
      if (at_end()) fail("\\ at the end of the pattern");
      const char e = peek();
      if (e >= '1' && e <= '9') {
        Node reference;
        reference.kind = Node::Kind::kBackreference;
        reference.group = static_cast<int>(std::min<std::size_t>(*number(), 1000000));
        return reference;
      }
      if (e == 'k' && peek(1) == '<') {
        pos_ += 2;
        const std::size_t end = pattern_.find('>', pos_);
        if (end == std::string_view::npos) fail("malformed \\k<name>");
        Node reference;
        reference.kind = Node::Kind::kBackreference;
        reference.name = std::string(pattern_.substr(pos_, end - pos_));
        pos_ = end + 1;
        return reference;
      }
      return set_node(escape(false));
    }
    ++pos_;
    return set_node(range_set(static_cast<unsigned char>(c), static_cast<unsigned char>(c)));
  }

  int hex_value(std::size_t digits) {
    int value = 0;
    for (std::size_t i = 0; i < digits; ++i) {
      const char h = peek();
      int d = -1;
      if (h >= '0' && h <= '9') d = h - '0';
      if (h >= 'a' && h <= 'f') d = h - 'a' + 10;
      if (h >= 'A' && h <= 'F') d = h - 'A' + 10;
      if (d < 0) return -1;
      value = value * 16 + d;
      ++pos_;
    }
    return value;
  }

  // The escape after a backslash (pos_ at its first character), as a set; `in_class` reads \b as
  // the backspace.
  CharSet escape(bool in_class) {
    const char e = peek();
    ++pos_;
    switch (e) {
      case 'd':
        return digit_set();
      case 'D':
        return ~digit_set();
      case 'w':
        return word_set();
      case 'W':
        return ~word_set();
      case 's':
        return space_set();
      case 'S':
        return ~space_set();
      case 't':
        return range_set('\t', '\t');
      case 'n':
        return range_set('\n', '\n');
      case 'v':
        return range_set('\v', '\v');
      case 'f':
        return range_set('\f', '\f');
      case 'r':
        return range_set('\r', '\r');
      case 'b':
        if (in_class) return range_set('\b', '\b');
        break;
      case '0':
        if (!(peek() >= '0' && peek() <= '9')) return range_set(0, 0);
        fail("octal escapes are not evaluated");
      case 'c': {
        const char letter = peek();
        if ((letter >= 'a' && letter <= 'z') || (letter >= 'A' && letter <= 'Z')) {
          ++pos_;
          return range_set(letter % 32, letter % 32);
        }
        return range_set('\\', '\\') | range_set('c', 'c');
      }
      case 'x':
      case 'u': {
        const std::size_t start = pos_;
        if (e == 'u' && peek() == '{') fail("\\u{...} needs the u flag, which patterns lack");
        const int value = hex_value(e == 'x' ? 2 : 4);
        if (value < 0) {  // Annex B: the letter itself
          pos_ = start;
          return range_set(e, e);
        }
        return range_set(value, value);  // beyond ASCII: an empty set over ASCII values
      }
      case 'p':
      case 'P':
        fail("\\p{...} is not evaluated together with lookaround, backreferences or \\b");
      default:
        break;
    }
    if (e >= '1' && e <= '9') fail("a backreference inside a character class");
    return range_set(static_cast<unsigned char>(e), static_cast<unsigned char>(e));
  }

  // One class atom: a character (its code, set to it alone) or a class escape (code -1).
  std::pair<int, CharSet> class_atom() {
    if (peek() == '\\') {
      ++pos_;
      if (at_end()) fail("\\ at the end of the pattern");
      const char e = peek();
      CharSet set = escape(true);
      const bool is_class = e == 'd' || e == 'D' || e == 'w' || e == 'W' || e == 's' || e == 'S';
      if (is_class || set.count() != 1) return {is_class ? -1 : 128, set};
      int code = 0;
      while (!set.test(static_cast<std::size_t>(code))) ++code;
      return {code, set};
    }
    const auto c = static_cast<unsigned char>(peek());
    ++pos_;
    return {c, range_set(c, c)};
  }

  CharSet char_class() {
    ++pos_;  // '['
    const bool negate = eat("^");
    CharSet set;
    while (true) {
      if (at_end()) fail("missing ']'");
      if (eat("]")) break;
      auto [first, first_set] = class_atom();
      if (peek() == '-' && peek(1) != ']' && pos_ + 1 < pattern_.size()) {
        ++pos_;
        auto [last, last_set] = class_atom();
        if (first >= 0 && last >= 0 && first <= 127 && last <= 127) {
          if (last < first) fail("range out of order in character class");
          set |= range_set(first, last);
          continue;
        }
        if (first == 128 || last == 128) {
          // A range with an end beyond ASCII: its ASCII part.
          if (first != -1 && last != -1) {
            set |= range_set(first == 128 ? 128 : first, last == 128 ? 127 : last);
            continue;
          }
        }
        // Annex B: a class escape at either end makes the dash a literal.
        set |= first_set | last_set | range_set('-', '-');
        continue;
      }
      set |= first_set;
    }
    return negate ? ~set : set;
  }

  void resolve(Node& node) {
    if (node.kind == Node::Kind::kBackreference) {
      if (!node.name.empty()) {
        for (const auto& [name, group] : names_)
          if (name == node.name) node.group = group;
        if (node.group == 0) fail(fmt::format("\\k<{}> names no group", node.name));
      } else if (node.group > groups_) {
        fail(fmt::format("\\{} refers to a group the pattern does not have", node.group));
      }
    }
    for (Node& child : node.children) resolve(child);
  }

  std::string_view pattern_;
  const std::string& where_;
  std::size_t pos_ = 0;
  int groups_ = 0;
  std::vector<std::pair<std::string, int>> names_;
};

enum class Op : std::uint8_t {
  kSet,    // a: index into sets
  kSplit,  // go to a, on failure to b
  kJump,   // go to a
  kSave,   // capture slot a := position
  kClear,  // capture slots [a, b) := unset
  kStart,
  kEnd,
  kWordBoundary,   // a = 1: negated
  kBackreference,  // group a
  kLoopMark,       // register a := position
  kLoopCheck,      // fail when position = register a
  kLook,           // body at a, continue at b; flags: behind, negated
  kMatch,          // success (of the body of a lookaround, or of the whole pattern)
};

struct Instruction {
  Op op = Op::kMatch;
  bool behind = false;
  bool negated = false;
  std::uint32_t a = 0;
  std::uint32_t b = 0;
};

class Program {
 public:
  Program(const Node& root, int groups, const std::string& where) : where_(where) {
    slots_ = static_cast<std::size_t>(groups + 1) * 2;
    emit(root, 0);
    add({Op::kMatch});
  }

  const std::vector<Instruction>& code() const { return code_; }
  const std::vector<CharSet>& sets() const { return sets_; }
  std::size_t slots() const { return slots_; }
  std::size_t registers() const { return registers_; }

 private:
  std::uint32_t here() const { return static_cast<std::uint32_t>(code_.size()); }
  std::uint32_t add(Instruction instruction) {
    if (code_.size() >= kMaxBacktrackingProgram)
      throw Error(fmt::format("{}: pattern too large to evaluate on a value (more than {} "
                              "instructions with its counted repetitions copied)",
                              where_, kMaxBacktrackingProgram),
                  ErrorCode::kLimit, schema_location(where_));
    code_.push_back(instruction);
    return here() - 1;
  }

  void emit(const Node& node, int depth) {
    switch (node.kind) {
      case Node::Kind::kEmpty:
        return;
      case Node::Kind::kSet:
        sets_.push_back(node.set);
        add({Op::kSet, false, false, static_cast<std::uint32_t>(sets_.size() - 1)});
        return;
      case Node::Kind::kConcat:
        for (const Node& child : node.children) emit(child, depth);
        return;
      case Node::Kind::kAlternation: {
        std::vector<std::uint32_t> jumps;
        for (std::size_t i = 0; i < node.children.size(); ++i) {
          std::uint32_t split = 0;
          const bool last = i + 1 == node.children.size();
          if (!last) split = add({Op::kSplit});
          if (!last) code_[split].a = here();
          emit(node.children[i], depth + 1);
          if (!last) {
            jumps.push_back(add({Op::kJump}));
            code_[split].b = here();
          }
        }
        for (const std::uint32_t jump : jumps) code_[jump].a = here();
        return;
      }
      case Node::Kind::kGroup:
        if (node.group > 0)
          add({Op::kSave, false, false, static_cast<std::uint32_t>(2 * node.group)});
        emit(node.children[0], depth + 1);
        if (node.group > 0)
          add({Op::kSave, false, false, static_cast<std::uint32_t>(2 * node.group + 1)});
        return;
      case Node::Kind::kRepeat:
        emit_repeat(node, depth);
        return;
      case Node::Kind::kStart:
        add({Op::kStart});
        return;
      case Node::Kind::kEnd:
        add({Op::kEnd});
        return;
      case Node::Kind::kWordBoundary:
        add({Op::kWordBoundary});
        return;
      case Node::Kind::kNotWordBoundary:
        add({Op::kWordBoundary, false, true});
        return;
      case Node::Kind::kBackreference:
        add({Op::kBackreference, false, false, static_cast<std::uint32_t>(node.group)});
        return;
      case Node::Kind::kLook: {
        const std::uint32_t look = add({Op::kLook, node.behind, node.negated});
        code_[look].a = here();
        emit(node.children[0], depth + 1);
        add({Op::kMatch});
        code_[look].b = here();
        return;
      }
    }
  }

  // One iteration of a repetition: captures of the atom cleared (ECMA-262 RepeatMatcher), and
  // for an optional iteration, the empty-iteration check around it.
  void emit_iteration(const Node& node, int depth, bool optional) {
    const Node& atom = node.children[0];
    if (atom.end_group > atom.first_group)
      add({Op::kClear, false, false, static_cast<std::uint32_t>(2 * atom.first_group),
           static_cast<std::uint32_t>(2 * atom.end_group)});
    std::uint32_t reg = 0;
    if (optional) {
      reg = static_cast<std::uint32_t>(registers_++);
      add({Op::kLoopMark, false, false, reg});
    }
    emit(atom, depth + 1);
    if (optional) add({Op::kLoopCheck, false, false, reg});
  }

  std::uint32_t split_into_body(bool greedy) {
    // Greedy: the body first (a), the exit on failure (b); lazy: the other way round. The
    // target still missing is patched by the caller.
    return add({Op::kSplit, false, greedy});
  }
  void patch_split(std::uint32_t split, std::uint32_t body, std::uint32_t exit) {
    // `negated` holds "greedy" for a repetition's split until it is patched.
    const bool greedy = code_[split].negated;
    code_[split].negated = false;
    code_[split].a = greedy ? body : exit;
    code_[split].b = greedy ? exit : body;
  }

  void emit_repeat(const Node& node, int depth) {
    for (std::size_t i = 0; i < node.min; ++i) emit_iteration(node, depth, false);
    if (node.max == kUnbounded) {
      const std::uint32_t loop = split_into_body(node.greedy);
      const std::uint32_t body = here();
      emit_iteration(node, depth, true);
      add({Op::kJump, false, false, loop});
      patch_split(loop, body, here());
      return;
    }
    std::vector<std::uint32_t> splits;
    for (std::size_t i = node.min; i < node.max; ++i) {
      const std::uint32_t split = split_into_body(node.greedy);
      splits.push_back(split);
      code_[split].a = here();  // the body, for now
      emit_iteration(node, depth, true);
    }
    const std::uint32_t exit = here();
    for (const std::uint32_t split : splits) patch_split(split, split + 1, exit);
  }

  const std::string& where_;
  std::vector<Instruction> code_;
  std::vector<CharSet> sets_;
  std::size_t slots_ = 0;
  std::size_t registers_ = 0;
};

class Machine {
 public:
  Machine(const Program& program, std::string_view text, std::size_t max_steps,
          const std::string& where)
      : program_(program),
        text_(text),
        max_steps_(max_steps),
        where_(where),
        slots_(program.slots(), -1),
        registers_(program.registers(), -1) {}

  bool search() {
    for (std::size_t start = 0; start <= text_.size(); ++start)
      if (run(0, static_cast<std::int64_t>(start), -1)) return true;
    return false;
  }

 private:
  enum class Entry : std::uint8_t { kChoice, kSlot, kRegister, kBarrier };
  struct Undo {
    Entry kind;
    std::uint32_t index;  // pc for a choice, else the slot or register
    std::int64_t value;   // position for a choice, else the old value
  };

  bool is_word(std::int64_t at) const {
    if (at < 0 || at >= static_cast<std::int64_t>(text_.size())) return false;
    static const CharSet word = word_set();
    return word.test(static_cast<unsigned char>(text_[static_cast<std::size_t>(at)]) & 0x7F);
  }

  void set_slot(std::uint32_t slot, std::int64_t value) {
    stack_.push_back({Entry::kSlot, slot, slots_[slot]});
    slots_[slot] = value;
  }

  // Pops to `base`, restoring what was changed; returns the last choice found (its pc and
  // position), or false when none is left above `base`.
  bool backtrack(std::size_t base, std::uint32_t& pc, std::int64_t& pos) {
    while (stack_.size() > base) {
      const Undo undo = stack_.back();
      stack_.pop_back();
      switch (undo.kind) {
        case Entry::kChoice:
          pc = undo.index;
          pos = undo.value;
          return true;
        case Entry::kSlot:
          slots_[undo.index] = undo.value;
          break;
        case Entry::kRegister:
          registers_[undo.index] = undo.value;
          break;
        case Entry::kBarrier:
          break;
      }
    }
    return false;
  }

  // After a lookaround's body succeeded: its choices are dropped (lookarounds are atomic), its
  // changes kept so that the enclosing match can still undo them.
  void drop_choices(std::size_t base) {
    std::size_t out = base;
    for (std::size_t i = base; i < stack_.size(); ++i)
      if (stack_[i].kind != Entry::kChoice) stack_[out++] = stack_[i];
    stack_.resize(out);
  }

  // Runs from `pc` at `pos`; succeeds at a kMatch (at `required_end` when it is not -1), leaving
  // the changes it made on the stack; on failure everything is undone.
  bool run(std::uint32_t pc, std::int64_t pos, std::int64_t required_end) {
    const std::size_t base = stack_.size();
    const auto& code = program_.code();
    const auto size = static_cast<std::int64_t>(text_.size());
    while (true) {
      if (++steps_ > max_steps_)
        throw Error(fmt::format("{}: evaluating the pattern on a value of {} bytes takes more than "
                                "{} steps (its lookaround or backreferences backtrack too much)",
                                where_, text_.size(), max_steps_),
                    ErrorCode::kLimit, schema_location(where_));
      const Instruction& in = code[pc];
      bool ok = true;
      switch (in.op) {
        case Op::kSet:
          ok = pos < size &&
               program_.sets()[in.a].test(
                   static_cast<unsigned char>(text_[static_cast<std::size_t>(pos)]) & 0x7F);
          if (ok) {
            ++pos;
            ++pc;
          }
          break;
        case Op::kSplit:
          stack_.push_back({Entry::kChoice, in.b, pos});
          pc = in.a;
          break;
        case Op::kJump:
          pc = in.a;
          break;
        case Op::kSave:
          set_slot(in.a, pos);
          ++pc;
          break;
        case Op::kClear:
          for (std::uint32_t slot = in.a; slot < in.b; ++slot)
            if (slots_[slot] != -1) set_slot(slot, -1);
          ++pc;
          break;
        case Op::kStart:
          ok = pos == 0;
          ++pc;
          break;
        case Op::kEnd:
          ok = pos == size;
          ++pc;
          break;
        case Op::kWordBoundary:
          ok = (is_word(pos - 1) != is_word(pos)) != in.negated;
          ++pc;
          break;
        case Op::kBackreference: {
          const std::int64_t begin = slots_[2 * in.a];
          const std::int64_t end = slots_[2 * in.a + 1];
          if (begin >= 0 && end >= begin) {
            const auto length = end - begin;
            ok = pos + length <= size &&
                 text_.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(length)) ==
                     text_.substr(static_cast<std::size_t>(pos), static_cast<std::size_t>(length));
            if (ok) pos += length;
          }
          ++pc;
          break;
        }
        case Op::kLoopMark:
          stack_.push_back({Entry::kRegister, in.a, registers_[in.a]});
          registers_[in.a] = pos;
          ++pc;
          break;
        case Op::kLoopCheck:
          ok = pos != registers_[in.a];
          ++pc;
          break;
        case Op::kLook: {
          const std::size_t mark = stack_.size();
          bool found = false;
          if (!in.behind) {
            found = run(in.a, pos, -1);
          } else {
            for (std::int64_t from = pos; from >= 0 && !found; --from) found = run(in.a, from, pos);
          }
          if (found) drop_choices(mark);
          if (found && in.negated) {
            std::uint32_t ignored_pc = 0;
            std::int64_t ignored_pos = 0;
            while (backtrack(mark, ignored_pc, ignored_pos)) {
            }
          }
          ok = found != in.negated;
          pc = in.b;
          break;
        }
        case Op::kMatch:
          if (required_end < 0 || pos == required_end) return true;
          ok = false;
          break;
      }
      if (!ok && !backtrack(base, pc, pos)) return false;
    }
  }

  const Program& program_;
  std::string_view text_;
  std::size_t max_steps_;
  const std::string& where_;
  std::size_t steps_ = 0;
  std::vector<std::int64_t> slots_;
  std::vector<std::int64_t> registers_;
  std::vector<Undo> stack_;
};

}  // namespace

bool backtracking_search(std::string_view pattern, std::string_view text, const std::string& where,
                         std::size_t max_steps) {
  Parser parser(pattern, where);
  const Node root = parser.parse();
  const Program program(root, parser.group_count(), where);
  return Machine(program, text, max_steps, where).search();
}

}  // namespace glrmask::json_schema
