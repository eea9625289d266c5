#include "api/src/structural_tag.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "lexer/regex/byte_level_grammar.h"
#include "lib/core/error.h"
#include "lib/core/token_terminal.h"
#include "lib/grammar/grammar_builder.h"
#include "lib/json_schema/value.h"

namespace glrmask {
namespace {

using json_schema::JsonValue;

// A piece of a begin, an end or a trigger: text, or one token (its spelling, `<tool_call>` or
// `<[151657]>`, resolved when the constraint is compiled: api/src/token_terminals.h).
struct Piece {
  bool is_token = false;
  std::string value;
};

struct Content {
  std::string format;  // a format of the source registry, or "const_string"
  std::string text;    // the grammar, pattern, schema (JSON text) or the fixed string
  std::string pointer;
};

struct Tag {
  std::vector<Piece> begin;
  Content content;
  std::vector<Piece> end;
  std::string pointer;
};

struct Spec {
  std::vector<Piece> triggers;
  std::vector<Tag> tags;
  bool at_least_one = false;
  bool stop_after_first = false;
};

class SpecReader {
 public:
  explicit SpecReader(const std::string& name) : name_(name) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw Error(fmt::format("{}: at {}: {}", name_, pointer.empty() ? "/" : pointer, message),
                ErrorCode::kSchema, ErrorLocation::in_json(name_, pointer));
  }

  const JsonValue& member(const JsonValue& object, const std::string& pointer,
                          std::string_view key) const {
    const JsonValue* value = object.find(key);
    if (value == nullptr) fail(pointer, fmt::format("missing \"{}\"", key));
    return *value;
  }

  bool optional_bool(const JsonValue& object, const std::string& pointer,
                     std::string_view key) const {
    const JsonValue* value = object.find(key);
    if (value == nullptr) return false;
    if (!value->is_bool())
      fail(json_schema::pointer_append(pointer, key), "expected true or false");
    return value->boolean;
  }

  Piece piece(const JsonValue& value, const std::string& pointer) const {
    if (value.is_string()) return Piece{false, value.string};
    if (value.is_object()) {
      const JsonValue& token = member(value, pointer, "token");
      const std::string at = json_schema::pointer_append(pointer, "token");
      if (token.is_string()) {
        if (token.string.empty()) fail(at, "an empty token name");
        return Piece{true, token.string};
      }
      if (token.is_number() && token.is_integer && token.integer >= 0 && token.integer <= INT32_MAX)
        return Piece{true, token_id_spelling(static_cast<std::uint32_t>(token.integer))};
      fail(at, "expected a token's text (\"<tool_call>\") or its id");
    }
    fail(pointer, "expected a string or {\"token\": ...}");
  }

  std::vector<Piece> pieces(const JsonValue& value, const std::string& pointer) const {
    std::vector<Piece> out;
    if (value.is_array()) {
      for (std::size_t i = 0; i < value.items.size(); ++i)
        out.push_back(
            piece(value.items[i], json_schema::pointer_append(pointer, std::to_string(i))));
    } else {
      out.push_back(piece(value, pointer));
    }
    std::erase_if(out, [](const Piece& p) { return !p.is_token && p.value.empty(); });
    return out;
  }

  Content content(const JsonValue& value, const std::string& pointer) const {
    if (!value.is_object()) fail(pointer, "expected an object with a \"type\"");
    const JsonValue& type = member(value, pointer, "type");
    if (!type.is_string()) fail(json_schema::pointer_append(pointer, "type"), "expected a string");
    const auto text_of = [&](std::string_view key) {
      const JsonValue& field = member(value, pointer, key);
      if (!field.is_string()) fail(json_schema::pointer_append(pointer, key), "expected a string");
      return field.string;
    };
    if (type.string == "json_schema") {
      const JsonValue& schema = member(value, pointer, "json_schema");
      return Content{"json_schema", json_schema::to_json_text(schema),
                     json_schema::pointer_append(pointer, "json_schema")};
    }
    if (type.string == "regex")
      return Content{"regex", text_of("pattern"), json_schema::pointer_append(pointer, "pattern")};
    if (type.string == "grammar" || type.string == "gbnf" || type.string == "ebnf")
      return Content{"gbnf", text_of("grammar"), json_schema::pointer_append(pointer, "grammar")};
    if (type.string == "const_string")
      return Content{"const_string", text_of("value"),
                     json_schema::pointer_append(pointer, "value")};
    fail(json_schema::pointer_append(pointer, "type"),
         fmt::format("content type \"{}\" is not supported (json_schema, regex, grammar, "
                     "const_string are)",
                     type.string));
  }

  Spec read(const JsonValue& root) const {
    if (!root.is_object()) fail("", "expected an object");
    if (const JsonValue* type = root.find("type");
        type != nullptr && (!type->is_string() || type->string != "structural_tag"))
      fail("/type", "expected \"structural_tag\"");
    Spec spec;
    const JsonValue* triggers = nullptr;
    std::string triggers_at;
    if (const JsonValue* format = root.find("format")) {
      if (!format->is_object()) fail("/format", "expected an object");
      const JsonValue& type = member(*format, "/format", "type");
      if (!type.is_string() || type.string != "triggered_tags") {
        fail("/format/type",
             fmt::format("format \"{}\" is not supported; glrmask takes \"triggered_tags\"",
                         type.is_string() ? type.string : "?"));
      }
      triggers = &member(*format, "/format", "triggers");
      triggers_at = "/format/triggers";
      const JsonValue& tags = member(*format, "/format", "tags");
      if (!tags.is_array() || tags.items.empty()) fail("/format/tags", "expected tags");
      for (std::size_t i = 0; i < tags.items.size(); ++i) {
        const std::string at = "/format/tags/" + std::to_string(i);
        const JsonValue& tag = tags.items[i];
        if (!tag.is_object()) fail(at, "expected an object");
        spec.tags.push_back(Tag{pieces(member(tag, at, "begin"), at + "/begin"),
                                content(member(tag, at, "content"), at + "/content"),
                                pieces(member(tag, at, "end"), at + "/end"), at});
      }
      spec.at_least_one = optional_bool(*format, "/format", "at_least_one");
      spec.stop_after_first = optional_bool(*format, "/format", "stop_after_first");
    } else {
      triggers = &member(root, "", "triggers");
      triggers_at = "/triggers";
      const JsonValue& structures = member(root, "", "structures");
      if (!structures.is_array() || structures.items.empty())
        fail("/structures", "expected structures");
      for (std::size_t i = 0; i < structures.items.size(); ++i) {
        const std::string at = "/structures/" + std::to_string(i);
        const JsonValue& structure = structures.items[i];
        if (!structure.is_object()) fail(at, "expected an object");
        spec.tags.push_back(
            Tag{pieces(member(structure, at, "begin"), at + "/begin"),
                Content{"json_schema", json_schema::to_json_text(member(structure, at, "schema")),
                        at + "/schema"},
                pieces(member(structure, at, "end"), at + "/end"), at});
      }
    }
    if (!triggers->is_array() || triggers->items.empty()) fail(triggers_at, "expected triggers");
    for (std::size_t i = 0; i < triggers->items.size(); ++i) {
      const std::string at = triggers_at + "/" + std::to_string(i);
      Piece trigger = piece(triggers->items[i], at);
      if (!trigger.is_token && trigger.value.empty()) fail(at, "an empty trigger");
      spec.triggers.push_back(std::move(trigger));
    }
    return spec;
  }

 private:
  const std::string& name_;
};

// The free text's automaton over bytes: which triggers have ended (Aho-Corasick over the string
// triggers) and where in a UTF-8 sequence the text is.
class FreeTextAutomaton {
 public:
  // UTF-8 positions: at a code point boundary, or the continuation bytes still due (with the
  // range the next one must be in for E0, ED, F0 and F4).
  enum Utf8 : std::uint8_t {
    kBoundary,
    kOne,
    kTwo,
    kThree,
    kAfterE0,
    kAfterED,
    kAfterF0,
    kAfterF4
  };
  static constexpr int kUtf8States = 8;

  explicit FreeTextAutomaton(const std::vector<std::string>& triggers) {
    nodes_.emplace_back();
    for (std::size_t t = 0; t < triggers.size(); ++t) {
      int node = 0;
      for (const char c : triggers[t]) {
        const auto b = static_cast<unsigned char>(c);
        if (nodes_[node].next[b] < 0) {
          nodes_[node].next[b] = static_cast<int>(nodes_.size());
          nodes_.emplace_back();
        }
        node = nodes_[node].next[b];
      }
      nodes_[node].ends.push_back(t);
    }
    // Breadth first: failure links, completed gotos, and the triggers ending at each node.
    std::vector<int> queue;
    for (int b = 0; b < 256; ++b) {
      int& child = nodes_[0].next[b];
      if (child < 0) {
        child = 0;
      } else {
        nodes_[child].fail = 0;
        queue.push_back(child);
      }
    }
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const int node = queue[i];
      const std::vector<std::size_t> inherited = nodes_[nodes_[node].fail].ends;
      nodes_[node].ends.insert(nodes_[node].ends.end(), inherited.begin(), inherited.end());
      for (int b = 0; b < 256; ++b) {
        int& child = nodes_[node].next[b];
        if (child < 0) {
          child = nodes_[nodes_[node].fail].next[b];
        } else {
          nodes_[child].fail = nodes_[nodes_[node].fail].next[b];
          queue.push_back(child);
        }
      }
    }
  }

  int num_states() const { return static_cast<int>(nodes_.size()) * kUtf8States; }
  static int state(int node, int utf8) { return node * kUtf8States + utf8; }
  static bool at_boundary(int state) { return state % kUtf8States == kBoundary; }
  // The triggers that end on entering `state` (none for free text).
  const std::vector<std::size_t>& ending(int state) const {
    return nodes_[state / kUtf8States].ends;
  }
  // The state after `byte`, or -1 when the byte cannot continue UTF-8 text there.
  int next(int state, unsigned byte) const {
    const int utf8 = utf8_next(state % kUtf8States, byte);
    if (utf8 < 0) return -1;
    return FreeTextAutomaton::state(nodes_[state / kUtf8States].next[byte], utf8);
  }

 private:
  static int utf8_next(int at, unsigned b) {
    const bool continuation = b >= 0x80 && b <= 0xBF;
    switch (at) {
      case kBoundary:
        if (b <= 0x7F) return kBoundary;
        if (b >= 0xC2 && b <= 0xDF) return kOne;
        if (b == 0xE0) return kAfterE0;
        if (b == 0xED) return kAfterED;
        if (b >= 0xE1 && b <= 0xEF) return kTwo;
        if (b == 0xF0) return kAfterF0;
        if (b >= 0xF1 && b <= 0xF3) return kThree;
        if (b == 0xF4) return kAfterF4;
        return -1;
      case kOne:
        return continuation ? kBoundary : -1;
      case kTwo:
        return continuation ? kOne : -1;
      case kThree:
        return continuation ? kTwo : -1;
      case kAfterE0:
        return b >= 0xA0 && b <= 0xBF ? kOne : -1;
      case kAfterED:
        return b >= 0x80 && b <= 0x9F ? kOne : -1;
      case kAfterF0:
        return b >= 0x90 && b <= 0xBF ? kTwo : -1;
      case kAfterF4:
        return b >= 0x80 && b <= 0x8F ? kTwo : -1;
      default:
        return -1;
    }
  }

  struct Node {
    std::array<int, 256> next;
    int fail = 0;
    std::vector<std::size_t> ends;  // string triggers ending here
    Node() { next.fill(-1); }
  };
  std::vector<Node> nodes_;
};

class StructuralTagLowering {
 public:
  StructuralTagLowering(const ConstraintSource& source, Spec spec)
      : source_(source), spec_(std::move(spec)), builder_(source.name), bytes_(builder_, "st_") {}

  GrammarModel run() {
    check_triggers();
    for (std::size_t g = 0; g < spec_.tags.size(); ++g) content_symbol(g);

    std::vector<std::string> text_triggers;
    for (const Piece& trigger : spec_.triggers)
      if (!trigger.is_token) text_triggers.push_back(trigger.value);
    const FreeTextAutomaton automaton(text_triggers);
    // Layer 0: before any tag; layer 1: after one (absent with stop_after_first, where the first
    // tag ends the text).
    const int layers = spec_.stop_after_first ? 1 : 2;
    const std::string start = "st_start";
    builder_.add_nonterminal(Nonterminal{start, {}, false, where("")});
    builder_.add_rule(RuleSpec{text_symbol(0, FreeTextAutomaton::state(0, 0)), {}, 0, "", {}});
    const std::string after_tag =
        spec_.stop_after_first ? start : text_symbol(1, FreeTextAutomaton::state(0, 0));
    for (int layer = 0; layer < layers; ++layer) {
      std::vector<int> pending{FreeTextAutomaton::state(0, 0)};
      std::vector<std::uint8_t> seen(static_cast<std::size_t>(automaton.num_states()), 0);
      while (!pending.empty()) {
        const int state = pending.back();
        pending.pop_back();
        if (seen[static_cast<std::size_t>(state)]) continue;
        seen[static_cast<std::size_t>(state)] = 1;
        const std::string& here = text_symbol(layer, state);
        if (FreeTextAutomaton::at_boundary(state) && (layer == 1 || !spec_.at_least_one))
          builder_.add_rule(RuleSpec{start, {here}, 0, "", {}});
        std::map<int, lexer::ByteSet> targets;
        for (unsigned b = 0; b < 256; ++b)
          if (const int next = automaton.next(state, b); next >= 0) targets[next].set(b);
        for (const auto& [next, set] : targets) {
          const std::string byte = bytes_.byte_class(set, where(""));
          if (automaton.ending(next).empty()) {
            builder_.add_rule(RuleSpec{text_symbol(layer, next), {here, byte}, 0, "", {}});
            pending.push_back(next);
            continue;
          }
          // A string trigger ends: a tag that begins with it must follow.
          for (const std::size_t t : automaton.ending(next))
            for (std::size_t g = 0; g < spec_.tags.size(); ++g)
              if (entered_by(g, text_triggers[t]))
                builder_.add_rule(RuleSpec{
                    after_tag, {here, byte, rest_symbol(g, text_triggers[t].size())}, 0, "", {}});
        }
        // A token trigger, between code points.
        if (FreeTextAutomaton::at_boundary(state))
          for (const Piece& trigger : spec_.triggers)
            if (trigger.is_token)
              for (std::size_t g = 0; g < spec_.tags.size(); ++g)
                if (spec_.tags[g].begin.front().is_token &&
                    spec_.tags[g].begin.front().value == trigger.value)
                  builder_.add_rule(RuleSpec{
                      after_tag,
                      {here, token_terminal(trigger.value, spec_.tags[g].pointer + "/begin"),
                       rest_symbol(g, 0)},
                      0,
                      "",
                      {}});
      }
    }
    bytes_.finish();
    return std::move(builder_).build(start);
  }

 private:
  SourceLocation where(const std::string& pointer) const {
    return SourceLocation{pointer.empty() ? source_.name : source_.name + "#" + pointer, 0, 0};
  }

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw Error(fmt::format("{}: at {}: {}", source_.name, pointer, message), ErrorCode::kSchema,
                ErrorLocation::in_json(source_.name, pointer));
  }

  // Whether tag g's begin starts with the string trigger.
  bool entered_by(std::size_t g, const std::string& trigger) const {
    const std::vector<Piece>& begin = spec_.tags[g].begin;
    return !begin.empty() && !begin.front().is_token && begin.front().value.starts_with(trigger);
  }

  void check_triggers() const {
    for (std::size_t g = 0; g < spec_.tags.size(); ++g) {
      const Tag& tag = spec_.tags[g];
      if (tag.begin.empty()) fail(tag.pointer + "/begin", "a tag needs a begin");
      bool entered = false;
      for (const Piece& trigger : spec_.triggers)
        entered = entered || (trigger.is_token ? tag.begin.front().is_token &&
                                                     tag.begin.front().value == trigger.value
                                               : entered_by(g, trigger.value));
      if (!entered) fail(tag.pointer + "/begin", "the tag's begin does not start with any trigger");
    }
    for (std::size_t t = 0; t < spec_.triggers.size(); ++t) {
      bool begins = false;
      for (std::size_t g = 0; g < spec_.tags.size(); ++g)
        begins = begins || (spec_.triggers[t].is_token
                                ? spec_.tags[g].begin.front().is_token &&
                                      spec_.tags[g].begin.front().value == spec_.triggers[t].value
                                : entered_by(g, spec_.triggers[t].value));
      if (!begins) fail("/triggers/" + std::to_string(t), "the trigger begins no tag");
    }
  }

  const std::string& text_symbol(int layer, int state) {
    const auto key = std::make_pair(layer, state);
    auto it = text_symbols_.find(key);
    if (it == text_symbols_.end()) {
      const std::string name = fmt::format("st_text{}_{}", layer, state);
      builder_.add_nonterminal(Nonterminal{name, {}, true, where("")});
      it = text_symbols_.emplace(key, name).first;
    }
    return it->second;
  }

  std::string token_terminal(const std::string& spelling, const std::string& pointer) {
    auto it = tokens_.find(spelling);
    if (it == tokens_.end()) {
      Terminal terminal;
      terminal.name = fmt::format("ST_TOKEN_{}", tokens_.size());
      terminal.token = spelling;
      terminal.anonymous = true;
      terminal.origin = where(pointer);
      builder_.add_terminal(terminal);
      it = tokens_.emplace(spelling, terminal.name).first;
    }
    return it->second;
  }

  std::vector<std::string> spelled(const std::vector<Piece>& pieces, std::size_t skip,
                                   const std::string& pointer) {
    std::vector<std::string> symbols;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      const Piece& piece = pieces[i];
      if (piece.is_token) {
        symbols.push_back(token_terminal(piece.value, pointer));
        continue;
      }
      const std::string_view text = std::string_view(piece.value).substr(i == 0 ? skip : 0);
      const std::vector<std::string> bytes = bytes_.literal(text, where(pointer));
      symbols.insert(symbols.end(), bytes.begin(), bytes.end());
    }
    return symbols;
  }

  // The tag after its trigger: the rest of the begin (past `skip` bytes of its first text, or
  // past its first token when it begins with one), the content and the end.
  std::string rest_symbol(std::size_t g, std::size_t skip) {
    const auto key = std::make_pair(g, skip);
    if (const auto it = rests_.find(key); it != rests_.end()) return it->second;
    const Tag& tag = spec_.tags[g];
    const std::string name = fmt::format("st_tag{}_after{}", g, skip);
    builder_.add_nonterminal(Nonterminal{name, {}, true, where(tag.pointer)});
    std::vector<Piece> begin = tag.begin;
    if (begin.front().is_token) begin.erase(begin.begin());  // the trigger was the token
    std::vector<std::string> rhs = spelled(begin, skip, tag.pointer + "/begin");
    rhs.push_back(contents_.at(g));
    const std::vector<std::string> end = spelled(tag.end, 0, tag.pointer + "/end");
    rhs.insert(rhs.end(), end.begin(), end.end());
    builder_.add_rule(RuleSpec{name, std::move(rhs), 0, "", where(tag.pointer)});
    rests_.emplace(key, name);
    return name;
  }

  // The content's symbol, from its own front end read byte by byte.
  std::string content_symbol(std::size_t g) {
    const Content& content = spec_.tags[g].content;
    const std::string symbol = fmt::format("st_content{}", g);
    builder_.add_nonterminal(Nonterminal{symbol, {}, true, where(content.pointer)});
    if (content.format == "const_string") {
      builder_.add_rule(RuleSpec{symbol, bytes_.literal(content.text, where(content.pointer)), 0,
                                 "", where(content.pointer)});
    } else {
      SourceOptions options;
      options.json = source_.json;
      const ConstraintSource part = ConstraintSource::make(content.format, content.text, options,
                                                           source_.name + "#" + content.pointer);
      const std::string start = bytes_.append(part.build(), fmt::format("st_c{}_", g));
      builder_.add_rule(RuleSpec{symbol, {start}, 0, "", where(content.pointer)});
    }
    contents_.push_back(symbol);
    return symbol;
  }

  const ConstraintSource& source_;
  Spec spec_;
  GrammarBuilder builder_;
  lexer::ByteLevelWriter bytes_;
  std::map<std::pair<int, int>, std::string> text_symbols_;
  std::map<std::string, std::string> tokens_;
  std::map<std::pair<std::size_t, std::size_t>, std::string> rests_;
  std::vector<std::string> contents_;
};

}  // namespace

GrammarModel build_structural_tag(const ConstraintSource& source) {
  const JsonValue root = json_schema::parse_json(source.text, source.name);
  Spec spec = SpecReader(source.name).read(root);
  return StructuralTagLowering(source, std::move(spec)).run();
}

}  // namespace glrmask
