#include "mask/compiled/compiled_mask.h"

#include <fmt/format.h>

#include <chrono>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "lexer/terminal_dwa/fork_ignored_ending.h"
#include "lexer/terminal_dwa/terminal_dwa_builder.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/core/error.h"
#include "lib/core/process_memory.h"
#include "mask/compiled/token_classes.h"
#include "mask/parser_dwa/parser_dwa_builder.h"

namespace glrmask::mask {

std::shared_ptr<const CompiledMask> CompiledMask::compile(
    std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary,
    const ParserDwaOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const lexer::VocabularyTrie trie = lexer::VocabularyTrie::build(vocabulary);
  const double trie_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::shared_ptr<const CompiledMask> compiled =
      compile(std::move(grammar), vocabulary, trie, options);
  // The Terminal DWA's time includes the trie here, as it always has for this call.
  std::const_pointer_cast<CompiledMask>(compiled)->stats_.terminal_dwa_seconds += trie_seconds;
  return compiled;
}

std::shared_ptr<const CompiledMask> CompiledMask::compile(
    std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary,
    const lexer::VocabularyTrie& trie, const ParserDwaOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  TokenSetPool pool(static_cast<std::uint32_t>(vocabulary.size()));
  lexer::TerminalDwaOptions dwa_options;
  dwa_options.max_forks = options.max_terminal_dwa_forks;
  if (const glr::IndenterSpec* indenter = grammar->indenter())
    dwa_options.indent_labeling = lexer::IndentLabeling{indenter->newline, indenter->tab_len};
  lexer::TerminalDwa terminal_dwa =
      lexer::build_terminal_dwa(grammar->dfa(), trie, pool, dwa_options);
  const auto lexed = std::chrono::steady_clock::now();
  std::shared_ptr<CompiledMask> result(
      new CompiledMask(std::move(grammar), std::move(pool), std::move(terminal_dwa)));
  try {
    result->parser_dwa_ = build_parser_dwa(*result->grammar_, result->terminal_dwa_, result->pool_,
                                           vocabulary.eos(), options);
  } catch (const EndlessReductionsError& error) {
    // They come from rules the normalization could not rewrite; say which and why.
    const glr::CfgNormalization& normalization = result->grammar_->normalization();
    if (normalization.refusal.empty()) throw;
    std::string rules = normalization.found_text;
    if (!rules.empty() && rules.back() == '\n') rules.pop_back();
    throw EndlessReductionsError(fmt::format("{}\nthe grammar was not normalized: {}\n{}",
                                             error.what(), normalization.refusal, rules));
  }
  result->index_weights();
  const auto parsed = std::chrono::steady_clock::now();
  const std::vector<TokenSetId> weights = mask_weights(result->parser_dwa_);
  const TokenPartition classes = partition_tokens(result->pool_, weights);  // mask_classes()
  result->weight_classes_ = WeightClassRows(result->pool_, weights, classes);
  result->stats_.mask_classes = static_cast<std::uint32_t>(classes.num_classes());
  result->stats_.weight_classes_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - parsed).count();
  result->stats_.terminal_dwa_seconds = std::chrono::duration<double>(lexed - started).count();
  result->stats_.parser_dwa_seconds = std::chrono::duration<double>(parsed - lexed).count();
  result->stats_.peak_memory_bytes = peak_memory_bytes();
  result->stats_.distinct_token_sets = result->pool_.distinct_sets();
  return result;
}

void CompiledMask::index_weights() {
  std::vector<TokenSetId> weights;
  weights.reserve(parser_dwa_.all_transitions().size());  // not the stats: a loaded file says them
  for (const ParserDwaTransition& t : parser_dwa_.all_transitions()) weights.push_back(t.weight);
  for (const TokenSetId weight : branch_mask_weights(parser_dwa_)) weights.push_back(weight);
  weight_sources_ = DenseSources(pool_, weights);
}

const std::vector<char>& CompiledMask::forks_with_future() const {
  std::call_once(forks_with_future_once_, [&] {
    const std::vector<char> ends_through_ignored =
        lexer::forks_ending_through_ignored(terminal_dwa_);
    forks_with_future_.assign(terminal_dwa_.num_forks(), 0);
    for (lexer::ForkId fork = 0; fork < terminal_dwa_.num_forks(); ++fork)
      forks_with_future_[fork] = !terminal_dwa_.next_terminals(fork).empty() ||
                                 terminal_dwa_.can_finish(fork) || ends_through_ignored[fork] != 0;
  });
  return forks_with_future_;
}

std::uint64_t CompiledMask::parser_dwa_digest() const {
  std::unordered_map<std::uint32_t, std::uint64_t> digests;
  return parser_dwa_.content_digest([&](TokenSetId id) {
    if (id.is_empty()) return std::uint64_t{0};
    const auto [at, added] = digests.try_emplace(id.value(), 0);
    if (added) at->second = pool_.content_hash_of(pool_.get(id));
    return at->second;
  });
}

}  // namespace glrmask::mask
