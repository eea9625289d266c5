#include "lib/tokenizer/pretokenizer.h"

#include "lib/core/unicode_utf8.h"
#include "lib/tokenizer/split_regex.h"

namespace glrmask {
namespace {

// The reference's regexSplit (keep matches and the text between them) or, inverted, String.match
// (keep only the matches). `match_end(pos)` returns the end of a match starting at `pos`, or
// `pos` when none starts there.
template <typename MatchEnd>
void split_span(std::string_view buffer, TextSpan span, bool keep_only_matches, MatchEnd match_end,
                std::vector<TextSpan>& out) {
  std::size_t pos = span.begin, previous = span.begin;
  while (pos < span.end) {
    const std::size_t end = match_end(pos);
    if (end == pos) {
      pos += utf8_sequence_length(static_cast<unsigned char>(buffer[pos]));
      continue;
    }
    if (previous < pos && !keep_only_matches) out.push_back({previous, pos});
    out.push_back({pos, end});
    pos = previous = end;
  }
  if (previous < span.end && !keep_only_matches) out.push_back({previous, span.end});
}

}  // namespace

PreTokenizer::PreTokenizer(std::vector<PreTokenizerStep> steps) : steps_(std::move(steps)) {}

void PreTokenizer::split(std::string_view text, std::string& buffer, std::vector<TextSpan>& pieces,
                         std::vector<TextSpan>& scratch) const {
  buffer.assign(text);
  pieces.clear();
  pieces.push_back({0, buffer.size()});
  for (const PreTokenizerStep& step : steps_) {
    scratch.clear();
    for (TextSpan piece : pieces) {
      // Matchers see the piece alone: lookarounds and the end of text stop at its end.
      const auto view = [&] { return std::string_view(buffer).substr(0, piece.end); };
      switch (step.kind) {
        case PreTokenizerStep::Kind::SplitRegex:
          split_span(
              buffer, piece, step.invert,
              [&, text_view = view()](std::size_t pos) {
                return match_split_regex(step.regex, text_view, pos);
              },
              scratch);
          break;
        case PreTokenizerStep::Kind::SplitLiteral:
          split_span(
              buffer, piece, step.invert,
              [&, text_view = view()](std::size_t pos) {
                return text_view.substr(pos, step.literal.size()) == step.literal
                           ? pos + step.literal.size()
                           : pos;
              },
              scratch);
          break;
        case PreTokenizerStep::Kind::ByteLevel:
          if (step.add_prefix_space && (piece.begin == piece.end || buffer[piece.begin] != ' ')) {
            const std::string rewritten = " " + buffer.substr(piece.begin, piece.end - piece.begin);
            piece = {buffer.size(), buffer.size() + rewritten.size()};
            buffer += rewritten;
          }
          if (step.use_regex) {
            split_span(
                buffer, piece, false,
                [&, text_view = view()](std::size_t pos) {
                  return match_split_regex(SplitRegex::Gpt2, text_view, pos);
                },
                scratch);
          } else {
            scratch.push_back(piece);
          }
          break;
      }
    }
    pieces.swap(scratch);
  }
}

}  // namespace glrmask
