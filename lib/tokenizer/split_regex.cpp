#include "lib/tokenizer/split_regex.h"

#include "lib/core/unicode_utf8.h"
#include "lib/tokenizer/unicode_classes.h"

namespace glrmask {
namespace {

using namespace unicode;

constexpr std::uint16_t kWordOrNumber = kL | kN;
// [^\s\p{L}\p{N}]: punctuation, symbols, marks, controls that are not whitespace.
constexpr std::uint16_t kNotPunctuation = kSpace | kL | kN;
// [^\r\n\p{L}\p{N}]: the optional lead character of a word (a space, a quote, a mark, ...).
constexpr std::uint16_t kNotWordLead = kCrLf | kL | kN;
// The two letter classes of the o200k pattern.
constexpr std::uint16_t kUpperish = kLu | kLt | kLm | kLo | kM;  // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
constexpr std::uint16_t kLowerish = kLl | kLm | kLo | kM;        // [\p{Ll}\p{Lm}\p{Lo}\p{M}]

// A view of the text that decodes one code point at a time.
class Text {
 public:
  explicit Text(std::string_view text) : text_(text) {}
  std::size_t size() const { return text_.size(); }

  struct Char {
    std::uint16_t classes = 0;  // 0 past the end
    bool present = false;       // false past the end
    std::size_t next = 0;       // byte offset of the following character
  };
  Char at(std::size_t pos) const {
    if (pos >= text_.size()) return {0, false, pos};
    std::size_t next = pos;
    const char32_t code = decode_utf8(text_, next);
    return {char_classes(code), true, next};
  }

  // End of the run of characters from `pos` whose classes intersect `any`.
  std::size_t run_of(std::size_t pos, std::uint16_t any) const {
    for (Char c = at(pos); c.classes & any; c = at(pos)) pos = c.next;
    return pos;
  }
  // End of the run of characters from `pos` whose classes avoid `none`.
  std::size_t run_without(std::size_t pos, std::uint16_t none) const {
    while (pos < text_.size()) {
      const Char c = at(pos);
      if (c.classes & none) break;
      pos = c.next;
    }
    return pos;
  }
  // End of the run of bytes from `pos` that occur in `set` (ASCII only).
  std::size_t run_of_bytes(std::size_t pos, std::string_view set) const {
    while (pos < text_.size() && set.find(text_[pos]) != std::string_view::npos) ++pos;
    return pos;
  }
  char byte(std::size_t pos) const { return pos < text_.size() ? text_[pos] : '\0'; }

 private:
  std::string_view text_;
};

char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// 's|'t|'re|'ve|'m|'ll|'d at `pos`; with `any_case`, as the reference rewrites (?i:...): ASCII
// letters of either case, nothing else (Rust's (?i) would also take U+017F for 's').
std::size_t contraction(const Text& text, std::size_t pos, bool any_case) {
  if (text.byte(pos) != '\'') return pos;
  const auto letter = [&](std::size_t at) {
    const char c = text.byte(at);
    return any_case ? ascii_lower(c) : c;
  };
  switch (letter(pos + 1)) {
    case 's':
    case 't':
    case 'm':
    case 'd':
      return pos + 2;
    case 'r':
    case 'v':
      return letter(pos + 2) == 'e' ? pos + 3 : pos;
    case 'l':
      return letter(pos + 2) == 'l' ? pos + 3 : pos;
    default:
      return pos;
  }
}

// \s*[\r\n]+ | \s+(?!\S) | \s+ at `pos`, where the character at `pos` is whitespace.
// `with_newline_run` selects whether the first alternative is part of the pattern.
std::size_t whitespace(const Text& text, std::size_t pos, bool with_newline_run) {
  std::size_t end = pos, last_start = pos, after_last_newline = pos;
  std::size_t count = 0;
  for (Text::Char c = text.at(pos); c.classes & kSpace; c = text.at(end)) {
    if (c.classes & kCrLf) after_last_newline = c.next;
    last_start = end;
    end = c.next;
    ++count;
  }
  // \s* backtracks to the last line break of the run; [\r\n]+ then takes just that one, since
  // what follows it is not a line break.
  if (with_newline_run && after_last_newline > pos) return after_last_newline;
  // \s+(?!\S): the whole run at the end of the text, else the run without its last character.
  if (end == text.size()) return end;
  if (count >= 2) return last_start;
  return end;  // \s+
}

// The character after the optional lead of ` ?X+`: X cannot match a space, so ` ?` takes the
// space when there is one.
Text::Char after_optional_space(const Text& text, std::size_t pos) {
  return text.at(text.byte(pos) == ' ' ? pos + 1 : pos);
}

// [^\s\p{L}\p{N}] for a character that may lie past the end.
bool is_punctuation(const Text::Char& c) {
  return c.present && !(c.classes & kNotPunctuation);
}

//  's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
std::size_t match_gpt2(const Text& text, std::size_t pos) {
  if (std::size_t end = contraction(text, pos, /*any_case=*/false); end > pos) return end;
  const Text::Char body = after_optional_space(text, pos);
  if (body.classes & kL) return text.run_of(body.next, kL);
  if (body.classes & kN) return text.run_of(body.next, kN);
  if (is_punctuation(body)) return text.run_without(body.next, kNotPunctuation);
  if (text.at(pos).classes & kSpace) return whitespace(text, pos, /*with_newline_run=*/false);
  return pos;
}

//  (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,max_digits}
//  | ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
std::size_t match_llama3(const Text& text, std::size_t pos, int max_digits) {
  if (std::size_t end = contraction(text, pos, /*any_case=*/true); end > pos) return end;
  const Text::Char first = text.at(pos);
  if (first.classes & kL) return text.run_of(first.next, kL);
  if (!(first.classes & kNotWordLead)) {
    const Text::Char second = text.at(first.next);
    if (second.classes & kL) return text.run_of(second.next, kL);
  }
  if (first.classes & kN) {
    std::size_t end = first.next;
    for (int digits = 1; digits < max_digits; ++digits) {
      const Text::Char c = text.at(end);
      if (!(c.classes & kN)) break;
      end = c.next;
    }
    return end;
  }
  const Text::Char body = after_optional_space(text, pos);
  if (is_punctuation(body))
    return text.run_of_bytes(text.run_without(body.next, kNotPunctuation), "\r\n");
  if (first.classes & kSpace) return whitespace(text, pos, /*with_newline_run=*/true);
  return pos;
}

// [^\r\n\p{L}\p{N}]?[Upperish]*[Lowerish]+(?i:contraction)? at `start`, the optional lead
// already decided by the caller.
std::size_t o200k_lower_word(const Text& text, std::size_t start) {
  // [Upperish]* is greedy; [Lowerish]+ then needs one character. If the one after the upper run is
  // lowercase, the lower run follows; otherwise the star gives back characters until it returns one
  // that is also Lowerish (Lm, Lo, M), and the lower run is that single character.
  std::size_t end = start, after_last_shared = start;
  for (Text::Char c = text.at(end); c.classes & kUpperish; c = text.at(end)) {
    if (c.classes & kLowerish) after_last_shared = c.next;
    end = c.next;
  }
  if (text.at(end).classes & kLl) {
    end = text.run_of(end, kLowerish);
  } else if (after_last_shared > start) {
    end = after_last_shared;
  } else {
    return start;
  }
  return contraction(text, end, /*any_case=*/true);
}

// [^\r\n\p{L}\p{N}]?[Upperish]+[Lowerish]*(?i:contraction)? at `start`.
std::size_t o200k_upper_word(const Text& text, std::size_t start) {
  if (!(text.at(start).classes & kUpperish)) return start;
  const std::size_t end = text.run_of(text.run_of(start, kUpperish), kLowerish);
  return contraction(text, end, /*any_case=*/true);
}

//  [^\r\n\p{L}\p{N}]?[Upperish]*[Lowerish]+(?i:...)?|[^\r\n\p{L}\p{N}]?[Upperish]+[Lowerish]*(?i:...)?
//  |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
std::size_t match_o200k(const Text& text, std::size_t pos) {
  const Text::Char first = text.at(pos);
  // Each word alternative first tries with the optional lead character, then without it.
  const bool has_lead = !(first.classes & kNotWordLead);
  for (auto word : {o200k_lower_word, o200k_upper_word}) {
    if (has_lead) {
      if (std::size_t end = word(text, first.next); end > first.next) return end;
    }
    if (std::size_t end = word(text, pos); end > pos) return end;
  }
  if (first.classes & kN) {
    std::size_t end = first.next;
    for (int digits = 1; digits < 3 && (text.at(end).classes & kN); ++digits)
      end = text.at(end).next;
    return end;
  }
  const Text::Char body = after_optional_space(text, pos);
  if (is_punctuation(body))
    return text.run_of_bytes(text.run_without(body.next, kNotPunctuation), "\r\n/");
  if (first.classes & kSpace) return whitespace(text, pos, /*with_newline_run=*/true);
  return pos;
}

}  // namespace

std::size_t match_split_regex(SplitRegex regex, std::string_view text, std::size_t pos) {
  const Text view(text);
  switch (regex) {
    case SplitRegex::Gpt2:
      return match_gpt2(view, pos);
    case SplitRegex::Llama3:
      return match_llama3(view, pos, 3);
    case SplitRegex::Qwen2:
      return match_llama3(view, pos, 1);
    case SplitRegex::O200k:
      return match_o200k(view, pos);
  }
  return pos;
}

}  // namespace glrmask
