// The options every grammar-reading command shares: `--start NAME`, `--policy glr|lark` and
// `--skippable TERMINAL` (repeatable, or comma-separated). They are taken out of the argument
// list before the command parses its own options, because Args keeps one value per option and
// `--skippable` may be given several times.
#pragma once

#include <cstdint>
#include <string>

#include "apps/commands.h"
#include "glr/compiled_grammar.h"

namespace glrmask::app {

// Which of the shared options a command accepts; the others stay in the argument list, where the
// command's Args reports them as unknown.
enum GrammarOption : std::uint8_t {
  kStartOption = 1,
  kPolicyOption = 2,
  kSkippableOption = 4,
  kAllGrammarOptions = kStartOption | kPolicyOption | kSkippableOption,
};

// Removes the accepted grammar options (both `--name value` and `--name=value`) from `args` and
// returns them as parse options. Throws glrmask::Error naming the option for a missing value, an
// unknown policy, an empty terminal name or a repeated --start / --policy.
glr::ParseOptions take_grammar_options(CommandArgs& args,
                                       std::uint8_t accepted = kAllGrammarOptions);

// "glr" or "lark", as the options spell them.
std::string policy_name(glr::ConflictPolicy policy);

}  // namespace glrmask::app
