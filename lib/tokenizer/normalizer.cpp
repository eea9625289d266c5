#include "lib/tokenizer/normalizer.h"

#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>

#include <algorithm>

#include "lib/core/error.h"

namespace glrmask {
namespace {

const icu::Normalizer2& unicode_form(NormalizerStep::Kind kind) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* form = nullptr;
  switch (kind) {
    case NormalizerStep::Kind::Nfc:
      form = icu::Normalizer2::getNFCInstance(status);
      break;
    case NormalizerStep::Kind::Nfd:
      form = icu::Normalizer2::getNFDInstance(status);
      break;
    case NormalizerStep::Kind::Nfkc:
      form = icu::Normalizer2::getNFKCInstance(status);
      break;
    case NormalizerStep::Kind::Nfkd:
      form = icu::Normalizer2::getNFKDInstance(status);
      break;
    default:
      break;
  }
  if (U_FAILURE(status) || form == nullptr)
    throw Error(std::string("ICU normalizer unavailable: ") + u_errorName(status),
                ErrorCode::kInternal);
  return *form;
}

// Returns true when `out` received a rewritten `text`; false when `text` is already normalized
// (the common case, checked without copying).
bool normalize_unicode(NormalizerStep::Kind kind, std::string_view text, std::string& out) {
  // ASCII is invariant under all four forms.
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return false;
  const icu::Normalizer2& form = unicode_form(kind);
  const icu::StringPiece piece(text.data(), static_cast<int32_t>(text.size()));
  UErrorCode status = U_ZERO_ERROR;
  if (form.isNormalizedUTF8(piece, status) && U_SUCCESS(status)) return false;
  status = U_ZERO_ERROR;
  out.clear();
  icu::StringByteSink<std::string> sink(&out, static_cast<int32_t>(text.size()));
  form.normalizeUTF8(0, piece, sink, nullptr, status);
  if (U_FAILURE(status))
    throw Error(std::string("Unicode normalization failed: ") + u_errorName(status),
                ErrorCode::kInternal);
  return true;
}

void replace_all(std::string_view text, std::string_view from, std::string_view to,
                 std::string& out) {
  out.clear();
  std::size_t start = 0;
  for (std::size_t found; (found = text.find(from, start)) != std::string_view::npos;
       start = found + from.size()) {
    out.append(text.substr(start, found - start));
    out.append(to);
  }
  out.append(text.substr(start));
}

}  // namespace

Normalizer::Normalizer(std::vector<NormalizerStep> steps) : steps_(std::move(steps)) {
  for (const auto& step : steps_)  // fail at construction, not on the first text
    if (step.kind != NormalizerStep::Kind::Prepend && step.kind != NormalizerStep::Kind::Replace)
      unicode_form(step.kind);
}

void Normalizer::apply(std::string_view text, std::string& out) const {
  out.assign(text);
  std::string next;
  for (const auto& step : steps_) {
    switch (step.kind) {
      case NormalizerStep::Kind::Prepend:
        out.insert(0, step.text);
        continue;
      case NormalizerStep::Kind::Replace:
        if (out.find(step.text) == std::string::npos) continue;
        replace_all(out, step.text, step.replacement, next);
        break;
      default:
        if (!normalize_unicode(step.kind, out, next)) continue;
        break;
    }
    out.swap(next);
  }
}

}  // namespace glrmask
