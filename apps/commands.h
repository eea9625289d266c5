// The subcommands of the `glrmask` program. Each lives in its own apps/cmd_*.cpp file, takes the
// arguments after its name, prints to stdout, and returns the process exit code. Errors are thrown
// as glrmask::Error; main() prints them on one line and exits with code 2.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace glrmask::app {

using CommandArgs = std::vector<std::string>;

int run_demo(const CommandArgs& args);
int run_vocab(const CommandArgs& args);
int run_tokenize(const CommandArgs& args);
int run_lex(const CommandArgs& args);
int run_conflicts(const CommandArgs& args);
int run_stats(const CommandArgs& args);
int run_check(const CommandArgs& args);
int run_mask(const CommandArgs& args);
int run_generate(const CommandArgs& args);
int run_compile(const CommandArgs& args);
int run_schema2lark(const CommandArgs& args);
int run_parse(const CommandArgs& args);
int run_ambiguity(const CommandArgs& args);

struct Command {
  std::string_view name;
  std::string_view usage;
  std::string_view summary;
  int (*run)(const CommandArgs&);
};

inline constexpr Command kCommands[] = {
    {"demo",
     "glrmask demo [--tokenizer NAME|PATH] [--engine NAME] [--compare NAME|none] [--repeat N] "
     "[--write-example DIR]",
     "the main job on its embedded default: compile the bundled JSON grammar against a real "
     "tokenizer (llama3) for the wfa engine, teacher-force the bundled JSON document, check every "
     "mask against the oracle and print both engines' get_mask latency and commit's, then the "
     "encoder's throughput; --write-example writes the bundled grammar and document to DIR",
     run_demo},
    {"compile",
     "glrmask compile GRAMMAR --tokenizer NAME|PATH "
     "[-o FILE] [--start S] [--policy glr|lark] [--skippable T,...]",
     "compiles the grammar against the vocabulary for the wfa engine: Terminal DWA and Parser DWA "
     "statistics, compile time, peak memory; -o writes the artifact",
     run_compile},
    {"vocab", "glrmask vocab --tokenizer NAME|PATH",
     "vocabulary size, special tokens, EOS and the histogram of token byte lengths", run_vocab},
    {"tokenize", "glrmask tokenize --tokenizer NAME|PATH FILE",
     "the token ids of FILE (or - for standard input) on one line", run_tokenize},
    {"lex", "glrmask lex GRAMMAR FILE [--start S] [--chunk N] [--keep-ignored] [--postlex python]",
     "the terminal stream of FILE (or -): NAME<TAB>begin<TAB>end<TAB>text per token, ties as A|B",
     run_lex},
    {"conflicts",
     "glrmask conflicts GRAMMAR [--start S] [--policy glr|lark] [--counterexamples "
     "[--max-lookahead K] [--max-length N] [--max-configurations C] [--time-limit SECONDS]]",
     "every LALR(1) table cell with several actions: items, example prefix, what Lark keeps; "
     "--counterexamples classifies each: ambiguous, needs more lookahead, undecided",
     run_conflicts},
    {"stats",
     "glrmask stats GRAMMAR [--start S] [--policy glr|lark] [--skippable T,...] "
     "[--postlex python]",
     "sizes of the grammar, lexer DFA and LR table, conflict counts and build times", run_stats},
    {"check",
     "glrmask check GRAMMAR FILE... [--start S] [--policy glr|lark] [--skippable T,...] "
     "[--postlex python]",
     "whether each file is a sentence of the grammar; a rejection names the first byte offset "
     "where the text stopped being a prefix of a sentence (exit 1 if any file is rejected)",
     run_check},
    {"mask",
     "glrmask mask GRAMMAR --tokenizer NAME|PATH --input FILE [--input FILE ...] "
     "[--engine ENGINE] [--compare ENGINE] [--artifact FILE] [--fill] "
     "[--steps CSV] [--json] [--max-steps N] [--start S] [--policy glr|lark] [--skippable T,...] "
     "[--postlex python]",
     "teacher forcing through the library (the fastest engine that serves the grammar by default; "
     "--artifact loads a `glrmask compile -o` file): the mask at every token of each FILE must "
     "allow it (and EOS at the end); latency percentiles pooled over the inputs (--fill times a "
     "full bitmask write instead of the cached view), bit-for-bit comparison with a second "
     "engine, --steps writes every step (mask time, tokens, digest, engine counters) as CSV; "
     "exit 1 on a failure",
     run_mask},
    {"generate",
     "glrmask generate GRAMMAR --tokenizer NAME|PATH --seed S --max-tokens N [--count K] "
     "[--eos-bias P] [--min-tokens M] [--close-bias P] [--max-token-bytes B] [--prefix FILE] "
     "[--engine ENGINE] [--json-lines] [--start S] [--policy "
     "glr|lark] "
     "[--skippable T,...] [--postlex python]",
     "random walks: draw each token uniformly from the mask (the fastest engine that serves the "
     "grammar by default) until EOS or N tokens; prints each text and how it ended",
     run_generate},
    {"parse",
     "glrmask parse GRAMMAR FILE [--forest dot|json] [--trees N] [--shape lark|none] [--start S] "
     "[--policy glr|lark] [--skippable T,...]",
     "the parse forest of FILE over the grammar as written: the number of derivations (exact, or "
     "infinite), the forest as DOT or JSON, up to N distinct trees in Lark's notation",
     run_parse},
    {"ambiguity",
     "glrmask ambiguity GRAMMAR [--max-length N] [--max-lookahead K] [--max-configurations C] "
     "[--time-limit SECONDS] [--start S] [--policy glr|lark]",
     "the grammar's shortest ambiguous sentences (one per conflict cell), grouped by the "
     "nonterminal whose derivations differ, as terminals and text; the lexer's ties",
     run_ambiguity},
    {"schema2lark",
     "glrmask schema2lark FILE [--json-whitespace default|compact|flexible] "
     "[--json-schema-lenient]",
     "the Lark grammar a JSON Schema compiles to (docs/json_schema.md)", run_schema2lark},
};

}  // namespace glrmask::app
