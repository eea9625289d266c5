#include "lib/json_schema/pattern.h"

#include <vector>

#include "lib/json_schema/pattern_ast.h"
#include "lib/json_schema/regex.h"

namespace glrmask::json_schema {
namespace {

// The regex of one node over the JSON spelling: every character in each of its spellings, every
// parenthesis of the pattern kept as a non-capturing group.
std::string render_node(const PatternNode& node, StringSpellings spellings) {
  switch (node.kind) {
    case PatternNode::Kind::kEmpty:
      return "";
    case PatternNode::Kind::kSet:
      return json_char_regex(node.set, spellings);
    case PatternNode::Kind::kConcat: {
      std::string out;
      for (const PatternNode& child : node.children) out += render_node(child, spellings);
      return out;
    }
    case PatternNode::Kind::kAlternation: {
      std::string out;
      for (std::size_t i = 0; i < node.children.size(); ++i)
        out += (i ? "|" : "") + render_node(node.children[i], spellings);
      return "(?:" + out + ")";
    }
    case PatternNode::Kind::kGroup:
      return "(?:" + render_node(node.children.front(), spellings) + ")";
    case PatternNode::Kind::kRepeat:
      return "(?:" +
             repeat_regex(render_node(node.children.front(), spellings), node.min, node.max) + ")";
  }
  return "";
}

// `search`: an alternative without ^ may be preceded by any characters, one without $ followed
// by any.
std::string render_pattern(const PatternAst& ast, bool search, StringSpellings spellings) {
  const std::string any = json_any_char_regex(spellings) + "*";
  std::vector<std::string> alternatives;
  for (const PatternAlternative& alternative : ast.alternatives) {
    std::string body = render_node(alternative.body, spellings);
    if (search) {
      if (!alternative.anchored_start) body = any + body;
      if (!alternative.anchored_end) body += any;
    }
    alternatives.push_back(body);
  }
  std::string out;
  for (std::size_t i = 0; i < alternatives.size(); ++i)
    out += (i ? "|" : "") + std::string("(?:") + alternatives[i] + ")";
  return alternatives.size() == 1 ? alternatives[0] : "(?:" + out + ")";
}

}  // namespace

std::string translate_pattern(std::string_view pattern, const std::string& where,
                              StringSpellings spellings) {
  return render_pattern(parse_pattern(pattern, where), true, spellings);
}

std::string translate_anchored_pattern(std::string_view pattern, const std::string& where,
                                       StringSpellings spellings) {
  return render_pattern(parse_pattern(pattern, where), false, spellings);
}

}  // namespace glrmask::json_schema
