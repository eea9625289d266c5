// `glrmask tokenize`: the ids a real tokenizer gives a file, the teacher-forcing input of every
// experiment.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/input_file.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/tokenizer/encoder.h"

namespace glrmask::app {

int run_tokenize(const CommandArgs& argv) {
  Args args(argv, {"tokenizer"}, {});
  args.expect_positional(1, 1, "glrmask tokenize --tokenizer NAME|PATH FILE");
  Encoder encoder = Encoder::load(resolve_tokenizer(args.required("tokenizer")));

  const std::string& file = args.positional()[0];
  const std::string text = read_input_file(file);
  std::vector<TokenId> ids;
  try {
    ids = encoder.encode(text);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", file, e.what()), e.code(), e.where());
  }
  fmt::print("{}\n", fmt::join(ids, " "));
  return 0;
}

}  // namespace glrmask::app
