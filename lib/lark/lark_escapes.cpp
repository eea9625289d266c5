#include "lib/lark/lark_escapes.h"

#include <fmt/format.h>
#include <unicode/utf8.h>

#include <algorithm>

#include "lib/grammar/grammar_error.h"

namespace glrmask::lark {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The position of byte `offset` of a token that starts at `start`.
TextPos position_in_token(std::string_view raw, TextPos start, std::size_t offset) {
  TextPos pos = start;
  for (std::size_t i = 0; i < offset && i < raw.size(); ++i) {
    if (raw[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else if ((static_cast<std::uint8_t>(raw[i]) & 0xC0) != 0x80) {
      ++pos.column;
    }
  }
  return pos;
}

void append_code_point(std::string& out, UChar32 c) {
  std::uint8_t buffer[U8_MAX_LENGTH];
  std::int32_t length = 0;
  U8_APPEND_UNSAFE(buffer, length, c);
  out.append(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(length));
}

// Control characters as the escapes both Lark and Python `re` read back.
bool append_control_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '\n':
      out += "\\n";
      return true;
    case '\t':
      out += "\\t";
      return true;
    case '\r':
      out += "\\r";
      return true;
    case '\f':
      out += "\\f";
      return true;
    default:
      break;
  }
  if (c < 0x20 || c == 0x7f) {
    out += fmt::format("\\x{:02x}", c);
    return true;
  }
  return false;
}

}  // namespace

DecodedLiteral decode_literal(std::string_view raw, TextPos pos, const std::string& file) {
  DecodedLiteral result;
  const char delimiter = raw.empty() ? '\0' : raw.front();
  const std::size_t close = raw.rfind(delimiter);
  if ((delimiter != '"' && delimiter != '/') || close == 0 || close == std::string_view::npos) {
    throw GrammarError(SourceLocation{file, pos.line, pos.column},
                       fmt::format("malformed literal {}", raw));
  }
  result.is_regexp = delimiter == '/';
  result.flags = std::string(raw.substr(close + 1));
  std::sort(result.flags.begin(), result.flags.end());
  result.flags.erase(std::unique(result.flags.begin(), result.flags.end()), result.flags.end());
  const char* kind = result.is_regexp ? "regular expression" : "string";
  if (result.flags.find('l') != std::string::npos) {
    throw GrammarError(SourceLocation{file, pos.line, pos.column},
                       "the regexp flag 'l' (locale-dependent matching) is not supported");
  }

  auto fail_at = [&](std::size_t offset, const std::string& message) {
    TextPos at = position_in_token(raw, pos, offset);
    throw GrammarError(SourceLocation{file, at.line, at.column}, message);
  };

  std::string& out = result.value;
  for (std::size_t i = 1; i < close; ++i) {
    const char c = raw[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (i + 1 >= close) fail_at(i, fmt::format("{} ends with a lone backslash", kind));
    const char next = raw[i + 1];
    switch (next) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'f':
        out += '\f';
        break;
      case '"':
        out += '"';
        break;
      case '\\':
        out += result.is_regexp ? "\\\\" : "\\";
        break;
      case '/':
        // Only a delimiter in Lark's syntax; in `re` it is an ordinary character.
        out += result.is_regexp ? "/" : "\\/";
        break;
      case 'x':
      case 'u':
      case 'U': {
        const std::size_t digits = next == 'x' ? 2 : next == 'u' ? 4 : 8;
        std::uint32_t code = 0;
        for (std::size_t k = 0; k < digits; ++k) {
          const std::size_t at = i + 2 + k;
          const int value = at < close ? hex_value(raw[at]) : -1;
          if (value < 0) {
            fail_at(i,
                    fmt::format("bad escape in {}: \\{} needs {} hex digits", kind, next, digits));
          }
          code = code * 16 + static_cast<std::uint32_t>(value);
        }
        if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
          fail_at(i, fmt::format("bad escape in {}: U+{:04X} is not a Unicode scalar value", kind,
                                 code));
        }
        append_code_point(out, static_cast<UChar32>(code));
        i += digits;
        break;
      }
      default:
        out += '\\';
        out += next;
        break;
    }
    ++i;
  }
  if (out.empty()) {
    throw GrammarError(SourceLocation{file, pos.line, pos.column},
                       fmt::format("empty {} (terminals cannot be empty)", kind));
  }
  return result;
}

std::string regex_escape(std::string_view literal) {
  static constexpr std::string_view kMeta = "\\.^$|?*+()[]{}";
  std::string out;
  for (char c : literal) {
    if (kMeta.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string regex_class_escape(std::string_view character) {
  std::string out;
  for (char c : character) {
    if (c == '\\' || c == ']' || c == '[' || c == '^' || c == '-') out += '\\';
    out += c;
  }
  return out;
}

std::string lark_string_text(std::string_view literal, std::string_view flags) {
  std::string out = "\"";
  for (char c : literal) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (!append_control_escape(out, static_cast<unsigned char>(c))) {
      out += c;
    }
  }
  out += '"';
  out += flags;
  return out;
}

std::string lark_regexp_text(std::string_view pattern, std::string_view flags) {
  std::string out = "/";
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const auto c = static_cast<unsigned char>(pattern[i]);
    if (c == '\\' && i + 1 < pattern.size()) {
      const auto next = static_cast<unsigned char>(pattern[i + 1]);
      // In `re`, a backslash before a control character means that character; write just the
      // character's escape, since "\" followed by "\n" would read back as an escaped backslash.
      if (!append_control_escape(out, next)) {
        out += '\\';
        out += static_cast<char>(next);
      }
      ++i;
    } else if (c == '/') {
      out += "\\/";
    } else if (!append_control_escape(out, c)) {
      out += static_cast<char>(c);
    }
  }
  out += '/';
  out += flags;
  return out;
}

bool has_top_level_alternation(std::string_view regex) {
  int depth = 0;
  std::size_t i = 0;
  while (i < regex.size()) {
    const char c = regex[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (c == '[') {
      ++i;
      if (i < regex.size() && regex[i] == '^') ++i;
      if (i < regex.size() && regex[i] == ']') ++i;  // a leading ']' is a member
      while (i < regex.size() && regex[i] != ']') i += regex[i] == '\\' ? 2 : 1;
      ++i;
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == '|' && depth == 0) return true;
    ++i;
  }
  return false;
}

}  // namespace glrmask::lark
