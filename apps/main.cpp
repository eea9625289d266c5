// glrmask: grammar-constrained decoding engine, command-line front door.
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "apps/commands.h"
#include "apps/constraint_options.h"
#include "apps/error_line.h"
#include "apps/grammar_options.h"
#include "lib/core/error.h"

namespace {

void print_usage(std::FILE* out) {
  fmt::print(out, "usage: glrmask COMMAND [ARGS]\n\ncommands:\n");
  for (const auto& command : glrmask::app::kCommands)
    fmt::print(out, "  {:<10} {}\n             {}\n", command.name, command.summary, command.usage);
  fmt::print(out,
             "\nNAME is one of llama2, llama3, qwen3, gemma3, gptoss (fetched by "
             "scripts/setup.sh); PATH is any tokenizer.json.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(stdout);
    return 0;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const auto& command : glrmask::app::kCommands) {
    if (command.name != name) continue;
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
      fmt::print("usage: {}\n{}\n", command.usage, command.summary);
      // The lists the library's registries hold, so that the help names every engine and source.
      const std::string_view usage = command.usage;
      if (usage.find("GRAMMAR") != std::string_view::npos)
        fmt::print("\ngrammar sources (GRAMMAR is a Lark file unless one of these is given):\n{}",
                   glrmask::app::source_options_help());
      if (usage.find("ENGINE") != std::string_view::npos)
        fmt::print("\nengines (ENGINE):\n{}", glrmask::app::engine_help());
      return 0;
    }
    try {
      return command.run(args);
    } catch (const glrmask::Error& e) {
      fmt::print(stderr, "glrmask {}: {}\n", name,
                 glrmask::app::error_line(glrmask::app::with_options(e.what())));
      return 2;
    } catch (const std::exception& e) {
      fmt::print(stderr, "glrmask {}: internal error: {}\n", name,
                 glrmask::app::error_line(e.what()));
      return 3;
    }
  }
  fmt::print(stderr, "glrmask: unknown command '{}'\n", name);
  print_usage(stderr);
  return 2;
}
