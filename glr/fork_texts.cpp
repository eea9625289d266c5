#include "glr/fork_texts.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace glrmask::glr {

namespace {

struct Relexing {
  lexer::ForkedLexing lexing;
  std::vector<std::size_t> ends;  // end of each label within the pending bytes
};

// Steps every relexing by pending[from, to), the fall-back's re-lexing of the pending bytes.
template <typename R>
void relex(const lexer::LexerDfa& dfa, std::string_view pending, std::size_t from,
           std::vector<R>& current) {
  std::vector<R> next;
  std::vector<lexer::ForkedLexing> stepped;
  for (std::size_t i = from; i < pending.size() && !current.empty(); ++i) {
    next.clear();
    for (const R& r : current) {
      stepped.clear();
      lexer::step_fork(dfa, r.lexing, static_cast<std::uint8_t>(pending[i]), stepped);
      for (lexer::ForkedLexing& to : stepped) {
        R successor{std::move(to), r.ends};
        if (successor.lexing.labels.size() > r.lexing.labels.size())
          successor.ends.push_back(i + 1);
        next.push_back(std::move(successor));
      }
    }
    std::sort(next.begin(), next.end(), [](const R& a, const R& b) {
      if (a.lexing != b.lexing) return a.lexing < b.lexing;
      return a.ends < b.ends;
    });
    next.erase(std::unique(
                   next.begin(), next.end(),
                   [](const R& a, const R& b) { return a.lexing == b.lexing && a.ends == b.ends; }),
               next.end());
    std::swap(current, next);
  }
}

// The forks besides the fall-back's: the growing lexeme, and a match held back one byte.
void add_growing_and_held(const lexer::LexerDfa& dfa,
                          const lexer::LexerConfiguration& configuration, std::uint32_t tab_len,
                          bool with_growing, std::vector<ForkTexts>& result) {
  const std::string_view pending = configuration.pending;
  if (with_growing) {
    ForkTexts growing;
    growing.fork = {configuration.state, {}};
    growing.carried = {scan_indent({}, pending, tab_len), true};
    result.push_back(std::move(growing));
  }
  if (dfa.is_tentative(configuration.state)) {
    // The whole lexeme is a match held back one byte (lexer_fork.h, kHeldEmission).
    ForkTexts held;
    const lexer::LabelId label = dfa.tentative_label(configuration.state);
    if (!dfa.label_is_ignored(label)) {
      held.labels.push_back(label);
      held.texts.push_back({scan_indent({}, pending, tab_len), true});
    }
    held.fork = lexer::initial_fork(dfa);
    held.fork.inhibitors.push_back(lexer::emission_inhibitor(dfa, configuration.state));
    result.push_back(std::move(held));
  }
}

// The fall-back: the accepted label, then the pending bytes lexed again as forks (`relexed`),
// each inhibited by the whole lexeme's state.
template <typename R>
void add_fall_backs(const lexer::LexerDfa& dfa, const lexer::LexerConfiguration& configuration,
                    std::uint32_t tab_len, const std::vector<R>& relexed,
                    std::vector<ForkTexts>& result) {
  const std::string_view pending = configuration.pending;
  for (const R& relexing : relexed) {
    ForkTexts fall_back;
    if (!dfa.label_is_ignored(configuration.accepted)) {
      fall_back.labels.push_back(configuration.accepted);
      fall_back.texts.push_back({{}, true});
    }
    std::size_t begin = 0;
    for (std::size_t k = 0; k < relexing.lexing.labels.size(); ++k) {
      const std::size_t end = relexing.ends[k];
      fall_back.labels.push_back(relexing.lexing.labels[k]);
      fall_back.texts.push_back({scan_indent({}, pending.substr(begin, end - begin), tab_len)});
      begin = end;
    }
    fall_back.carried = {scan_indent({}, pending.substr(begin), tab_len)};
    fall_back.fork = relexing.lexing.fork;
    auto& inhibitors = fall_back.fork.inhibitors;
    const auto at = std::lower_bound(inhibitors.begin(), inhibitors.end(), configuration.state);
    if (at == inhibitors.end() || *at != configuration.state)
      inhibitors.insert(at, configuration.state);
    result.push_back(std::move(fall_back));
  }
}

}  // namespace

std::vector<ForkTexts> fork_texts(const lexer::LexerDfa& dfa,
                                  const lexer::LexerConfiguration& configuration,
                                  std::uint32_t tab_len, bool with_growing) {
  std::vector<ForkTexts> result;
  add_growing_and_held(dfa, configuration, tab_len, with_growing, result);
  if (configuration.accepted == lexer::LexerDfa::kNoLabel) return result;
  std::vector<Relexing> relexed = {{{{}, lexer::initial_fork(dfa)}, {}}};
  relex(dfa, configuration.pending, 0, relexed);
  add_fall_backs(dfa, configuration, tab_len, relexed, result);
  return result;
}

const std::vector<ForkTexts>& IncrementalForkTexts::forks(
    const lexer::LexerDfa& dfa, const lexer::LexerConfiguration& configuration,
    std::uint32_t tab_len) {
  result_.clear();
  add_growing_and_held(dfa, configuration, tab_len, true, result_);
  if (configuration.accepted == lexer::LexerDfa::kNoLabel) {
    valid_ = false;
    return result_;
  }
  const std::string_view pending = configuration.pending;
  const bool extends = valid_ && accepted_ == configuration.accepted &&
                       pending.size() >= pending_.size() &&
                       pending.substr(0, pending_.size()) == pending_;
  if (!extends) {
    relexing_.assign(1, {{{}, lexer::initial_fork(dfa)}, {}});
    relex(dfa, pending, 0, relexing_);
  } else {
    relex(dfa, pending, pending_.size(), relexing_);
  }
  valid_ = true;
  accepted_ = configuration.accepted;
  pending_.assign(pending);
  add_fall_backs(dfa, configuration, tab_len, relexing_, result_);
  return result_;
}

}  // namespace glrmask::glr
