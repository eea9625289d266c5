#include "lib/gbnf/gbnf_loader.h"

#include "lib/gbnf/gbnf_parser.h"

namespace glrmask {

GrammarModel load_gbnf_text(std::string_view text, const std::string& file_name,
                            const gbnf::LoweringOptions& options) {
  return gbnf::lower_gbnf(gbnf::parse_gbnf(text, file_name), options);
}

}  // namespace glrmask
