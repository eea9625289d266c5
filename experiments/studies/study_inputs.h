// Loading what every decoding study needs: a tokenizer (vocabulary, encoder, EOS), a compiled
// corpus grammar, the corpus texts as token ids, and an engine from the registry, each timed.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "experiments/studies/study_options.h"
#include "experiments/support/corpus.h"
#include "glr/compiled_grammar.h"
#include "glrmask/tokenizer.hpp"
#include "harness/mask_engines.h"
#include "lib/core/token_id.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/mask_engine.h"

namespace glrmask::experiments {

// The library's tokenizer (what the studies' matchers run on) and views of what it holds.
struct TokenizerInputs {
  TokenizerInputs(std::string name_in, Tokenizer handle_in);
  TokenizerInputs(const TokenizerInputs&) = delete;
  TokenizerInputs& operator=(const TokenizerInputs&) = delete;

  std::string name;  // tokenizer_label() of the command-line name
  Tokenizer handle;
  const Vocabulary& vocabulary;  // handle's
  const Encoder& encoder;        // handle's
  TokenId eos = 0;
};

// A short name for tables: the name itself, or the folder of a tokenizer.json path.
std::string tokenizer_label(const std::string& name_or_path);

// Throws glrmask::Error when the tokenizer is missing or names no EOS token. `name` may ask for a
// padded vocabulary (lib/tokenizer/tokenizer_choice.h).
std::unique_ptr<TokenizerInputs> load_tokenizer(const std::string& name);

struct EncodedText {
  const CorpusText* text = nullptr;
  std::vector<TokenId> tokens;
};

// Throws glrmask::Error naming the text for invalid UTF-8.
std::vector<EncodedText> encode_corpus(const Corpus& corpus, const TokenizerInputs& tokenizer);

// The corpora the options ask for: --grammar-file with --inputs, else the named grammars (or
// `default_grammars`), each capped at --max-programs (or `default_programs`).
std::vector<Corpus> load_corpora(const StudyOptions& options,
                                 const std::vector<std::string>& default_grammars,
                                 std::size_t default_programs);

// --engines, or every registered engine except those in `skip_by_default`.
std::vector<std::string> engine_names(const StudyOptions& options,
                                      const std::vector<std::string>& skip_by_default = {});
// The four tokenizers the full studies compare by default: Llama 2, Llama 3, Qwen 3, Gemma 3.
std::vector<std::string> full_study_tokenizers();
// --tokenizers, or `defaults`.
std::vector<std::string> tokenizer_names(const StudyOptions& options,
                                         const std::vector<std::string>& defaults);

// The corpus's parse options with the study's --policy applied.
glr::ParseOptions corpus_parse_options(const Corpus& corpus, const StudyOptions& options);
// The corpus grammar compiled with its options (and --policy when given).
std::shared_ptr<const glr::CompiledGrammar> compile_corpus_grammar(const Corpus& corpus,
                                                                   const StudyOptions& options);

// The engine, or nullptr (with the reason on stderr) when it refuses the grammar; studies skip
// such combinations. Throws glrmask::Error for an unknown engine name. `compiled`, when set, is
// the wfa's compilation of `grammar` against `vocabulary`, used instead of compiling again.
std::unique_ptr<mask::MaskEngine> make_engine(
    const std::string& name, std::shared_ptr<const glr::CompiledGrammar> grammar,
    const Vocabulary& vocabulary, std::shared_ptr<const mask::CompiledMask> compiled = nullptr);

// Tokens whose bytes hold a run of at least 8 '-' (the "long hyphen-run" tokens whose masks are
// the slow case of paper 003), sorted.
std::vector<TokenId> hyphen_run_tokens(const Vocabulary& vocabulary);

// Whether any of `tokens` is set in the dense mask.
bool mask_has_any(std::span<const std::uint32_t> words, const std::vector<TokenId>& tokens);

double seconds_since(std::chrono::steady_clock::time_point start);
// CPU time of the whole process (every thread) and of the calling thread, in seconds: on a machine
// shared with other work, wall time also counts the time other processes held the cores.
double process_cpu_seconds();
double thread_cpu_seconds();
// Peak resident memory of this process so far (VmHWM), in MiB; 0 when /proc is unavailable.
double peak_memory_mib();

// A one-line error message without this machine's data folder in it (for committed reports).
std::string portable_message(std::string message);

}  // namespace glrmask::experiments
