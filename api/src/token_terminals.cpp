#include "api/src/token_terminals.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "api/src/tokenizer_impl.h"
#include "lib/core/token_terminal.h"
#include "lib/grammar/grammar_error.h"

namespace glrmask {
namespace {

// The token a text names: the special token whose text it is, else the one ordinary token whose
// bytes it is (Qwen3's `<tool_call>` is an added token that is not special).
TokenId token_named(const Vocabulary& vocabulary, const Terminal& terminal) {
  const std::string_view text = terminal.token;
  std::vector<TokenId> special;
  std::vector<TokenId> ordinary;
  for (TokenId id = 0; id < vocabulary.size(); ++id) {
    if (!vocabulary.contains(id)) continue;
    if (vocabulary.is_special(id)) {
      if (vocabulary.piece(id) == text) special.push_back(id);
    } else if (vocabulary.bytes(id) == text) {
      ordinary.push_back(id);
    }
  }
  const std::vector<TokenId>& found = special.empty() ? ordinary : special;
  if (found.size() == 1) return found.front();
  if (found.empty()) {
    throw GrammarError(terminal.origin,
                       fmt::format("no token of the {} vocabulary is {} (name a token by its "
                                   "text, or by its id as <[id]>)",
                                   vocabulary.name(), text));
  }
  throw GrammarError(terminal.origin,
                     fmt::format("{} tokens of the {} vocabulary are {} (ids {}, ...): name one "
                                 "by its id as <[id]>",
                                 found.size(), vocabulary.name(), text, found.front()));
}

}  // namespace

std::optional<TokenBinding> bind_token_terminals(const GrammarModel& model,
                                                 const Tokenizer& tokenizer) {
  if (!model.has_token_terminals()) return std::nullopt;
  const Tokenizer::Impl& impl = tokenizer.impl();
  const Vocabulary& vocabulary = impl.vocabulary;
  std::vector<std::string> spellings(model.num_terminals());
  std::vector<TokenId> bound;
  bool negated = false;
  for (std::size_t i = 0; i < model.num_terminals(); ++i) {
    const Terminal& terminal = model.terminals()[i];
    if (terminal.token.empty()) continue;
    negated = negated || terminal.token_negated;
    const std::optional<std::uint32_t> by_id = token_spelling_id(terminal.token);
    if (by_id && !vocabulary.contains(*by_id)) {
      throw GrammarError(terminal.origin,
                         fmt::format("{} is not a token of the {} vocabulary ({} ids)",
                                     terminal.token, vocabulary.name(), vocabulary.size()));
    }
    const TokenId id = by_id ? *by_id : token_named(vocabulary, terminal);
    if (impl.is_stop[id]) {
      throw GrammarError(
          terminal.origin,
          fmt::format("{} is token {}, a stop id of the {} tokenizer: a stop id ends the text "
                      "wherever the grammar may end, and no grammar can name it",
                      terminal.token, id, vocabulary.name()));
    }
    spellings[i] = token_id_spelling(id);
    bound.push_back(id);
  }
  if (negated) {
    for (const TokenId id : vocabulary.special_ids())
      if (!impl.is_stop[id] && !vocabulary.piece(id).empty()) bound.push_back(id);
  }
  std::sort(bound.begin(), bound.end());
  bound.erase(std::unique(bound.begin(), bound.end()), bound.end());
  auto bound_impl = std::make_shared<const Tokenizer::Impl>(
      vocabulary.with_token_terminals(bound), impl.encoder, impl.stop_ids, impl.source);
  return TokenBinding{model.with_token_spellings(spellings),
                      Tokenizer::wrap(std::move(bound_impl))};
}

}  // namespace glrmask
