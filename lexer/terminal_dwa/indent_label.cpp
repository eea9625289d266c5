#include "lexer/terminal_dwa/indent_label.h"

#include <fmt/format.h>

#include "lib/core/error.h"

namespace glrmask::lexer {

LabelId make_indent_label(LabelId base, IndentText text) {
  if (base >= (1u << kIndentLabelBaseBits))
    throw Error(
        fmt::format(
            "Terminal DWA: lexer label {} is too large for an indent label (at most {} labels)",
            base, 1u << kIndentLabelBaseBits),
        ErrorCode::kLimit);
  if (text.width >= (1u << kIndentLabelWidthBits))
    throw Error(fmt::format("Terminal DWA: a newline of width {} is too wide (at most {})",
                            text.width, (1u << kIndentLabelWidthBits) - 1),
                ErrorCode::kLimit);
  return kIndentLabelBit | static_cast<uint32_t>(text.kind) << 29 |
         text.width << kIndentLabelBaseBits | base;
}

}  // namespace glrmask::lexer
