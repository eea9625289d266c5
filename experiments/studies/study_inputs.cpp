#include "experiments/studies/study_inputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <fstream>

#include "api/src/constraint_source.h"
#include "api/src/tokenizer_impl.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/settings.h"
#include "lib/tokenizer/tokenizer_choice.h"
#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask::experiments {

std::string tokenizer_label(const std::string& name_or_path) {
  if (const auto padded = parse_padded_tokenizer_name(name_or_path)) {
    std::string label = tokenizer_label(padded->base);
    for (const std::string& donor : padded->donors) label += "+" + tokenizer_label(donor);
    return fmt::format("{}@{}", label, padded->size);
  }
  if (name_or_path.find('/') == std::string::npos) return name_or_path;
  std::filesystem::path folder = std::filesystem::path(name_or_path).parent_path();
  // The setup cache keeps tokenizer.json in <name>/package/models/.
  if (folder.filename() == "models") folder = folder.parent_path().parent_path();
  return folder.filename().string();
}

TokenizerInputs::TokenizerInputs(std::string name_in, Tokenizer handle_in)
    : name(std::move(name_in)),
      handle(std::move(handle_in)),
      vocabulary(handle.impl().vocabulary),
      encoder(*handle.impl().encoder) {
  const auto first_eos = vocabulary.eos();
  if (!first_eos)
    throw Error(fmt::format("tokenizer {}: no EOS token ({})", name, vocabulary.description()),
                ErrorCode::kInvalidArgument);
  eos = *first_eos;
}

std::unique_ptr<TokenizerInputs> load_tokenizer(const std::string& name) {
  return std::make_unique<TokenizerInputs>(tokenizer_label(name), Tokenizer::load(name));
}

std::vector<EncodedText> encode_corpus(const Corpus& corpus, const TokenizerInputs& tokenizer) {
  std::vector<EncodedText> encoded;
  encoded.reserve(corpus.texts.size());
  for (const CorpusText& text : corpus.texts) {
    try {
      encoded.push_back({&text, tokenizer.encoder.encode(text.text)});
    } catch (const Error& e) {
      throw Error(fmt::format("{} ({}): {}", text.name, corpus.name, e.what()), e.code(),
                  e.where());
    }
  }
  return encoded;
}

std::vector<Corpus> load_corpora(const StudyOptions& options,
                                 const std::vector<std::string>& default_grammars,
                                 std::size_t default_programs) {
  if (!options.grammar_file.empty())
    return {corpus_from_files(options.grammar_file, options.input_files)};
  const std::size_t programs = options.max_programs != 0 ? options.max_programs : default_programs;
  const std::size_t skip = options.skip_programs;
  std::vector<Corpus> corpora;
  for (const std::string& name : options.grammars.empty() ? default_grammars : options.grammars) {
    Corpus corpus = load_named_corpus(name, programs == 0 ? 0 : skip + programs);
    corpus.texts.erase(
        corpus.texts.begin(),
        corpus.texts.begin() + static_cast<std::ptrdiff_t>(std::min(skip, corpus.texts.size())));
    corpora.push_back(std::move(corpus));
  }
  return corpora;
}

std::vector<std::string> engine_names(const StudyOptions& options,
                                      const std::vector<std::string>& skip_by_default) {
  if (!options.engines.empty()) return options.engines;
  std::vector<std::string> names;
  for (const std::string& name : mask_engine_names()) {
    if (std::find(skip_by_default.begin(), skip_by_default.end(), name) == skip_by_default.end())
      names.push_back(name);
  }
  return names;
}

std::vector<std::string> full_study_tokenizers() {
  return {"llama2", "llama3", "qwen3", "gemma3"};
}

std::vector<std::string> tokenizer_names(const StudyOptions& options,
                                         const std::vector<std::string>& defaults) {
  return options.tokenizers.empty() ? defaults : options.tokenizers;
}

glr::ParseOptions corpus_parse_options(const Corpus& corpus, const StudyOptions& options) {
  glr::ParseOptions parse_options = corpus.options;
  if (options.policy == "glr") {
    parse_options.policy = glr::ConflictPolicy::kKeepAll;
  } else if (options.policy == "lark") {
    parse_options.policy = glr::ConflictPolicy::kLark;
  } else if (!options.policy.empty()) {
    throw Error(fmt::format("option --policy: expected glr or lark, got '{}'", options.policy),
                ErrorCode::kInvalidArgument);
  }
  return parse_options;
}

std::shared_ptr<const glr::CompiledGrammar> compile_corpus_grammar(const Corpus& corpus,
                                                                   const StudyOptions& options) {
  const glr::ParseOptions parse_options = corpus_parse_options(corpus, options);
  if (corpus.format == "lark")
    return glr::CompiledGrammar::load_lark(corpus.grammar_path, parse_options);
  SourceOptions source_options;
  source_options.grammar = grammar_options(parse_options);
  return ConstraintSource::make(corpus.format, read_text_file(corpus.grammar_path), source_options,
                                corpus.grammar_path.string())
      .compile();
}

std::unique_ptr<mask::MaskEngine> make_engine(const std::string& name,
                                              std::shared_ptr<const glr::CompiledGrammar> grammar,
                                              const Vocabulary& vocabulary,
                                              std::shared_ptr<const mask::CompiledMask> compiled) {
  const std::vector<std::string> engines = mask_engine_names();
  const bool known = std::find(engines.begin(), engines.end(), name) != engines.end();
  // An unknown name is the user's mistake and stops the study; an engine refusing a grammar
  // (wfa on SynCode Go under the skippable-EOS convention) is a result, and the study goes on.
  if (!known) return make_mask_engine(name, {std::move(grammar), &vocabulary}, "--engines");
  try {
    return make_mask_engine(name, {std::move(grammar), &vocabulary, std::move(compiled)},
                            "--engines");
  } catch (const Error& error) {
    fmt::print(stderr, "*** engine '{}' refuses this grammar; skipped: {}\n", name, error.what());
    return nullptr;
  }
}

std::vector<TokenId> hyphen_run_tokens(const Vocabulary& vocabulary) {
  std::vector<TokenId> tokens;
  for (TokenId id = 0; id < vocabulary.size(); ++id) {
    if (!vocabulary.contains(id) || vocabulary.is_special(id)) continue;
    if (vocabulary.bytes(id).find("--------") != std::string_view::npos) tokens.push_back(id);
  }
  return tokens;
}

bool mask_has_any(std::span<const std::uint32_t> words, const std::vector<TokenId>& tokens) {
  for (const TokenId token : tokens)
    if (token / 32 < words.size() && ((words[token / 32] >> (token % 32)) & 1u)) return true;
  return false;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

namespace {

double cpu_seconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace

double process_cpu_seconds() {
  return cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

double thread_cpu_seconds() {
  return cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
}

double peak_memory_mib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  }
  return 0;
}

std::string portable_message(std::string message) {
  const std::string data = (data_dir() / "").string();
  for (std::size_t at; (at = message.find(data)) != std::string::npos;)
    message.replace(at, data.size(), "data/");
  if (const std::size_t newline = message.find('\n'); newline != std::string::npos)
    message.resize(newline);
  return message;
}

}  // namespace glrmask::experiments
