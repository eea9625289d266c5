#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "api/src/jump_forward.h"
#include "api/src/limits_internal.h"
#include "api/src/matcher_impl.h"
#include "lib/core/error.h"
#include "lib/core/token_terminal.h"

namespace glrmask {
namespace {

// Bounds the work of one jump-forward call; real forced strings are a few dozen bytes.
constexpr std::size_t kMaxForcedBytes = 1 << 16;

void require_row(std::size_t given, std::size_t needed) {
  if (given < needed)
    throw Error(fmt::format("the bitmask row has {} words; the vocabulary needs at least {}", given,
                            needed),
                ErrorCode::kInvalidArgument);
}

}  // namespace

Matcher::Impl::Impl(const Constraint& constraint_in, glr::SessionOptions options_in,
                    const MatcherOptions& matcher_options)
    : constraint(constraint_in),
      options(options_in),
      session(constraint_in.impl().recognizer, &constraint_in.impl().vocabulary(), options_in),
      engines(constraint_in.impl().engines.get()),
      word_count(constraint_in.tokenizer().bitmask_words()),
      several_stops(constraint_in.tokenizer().stop_ids().size() > 1),
      stop_ids(matcher_options.stop_ids.empty() ? constraint_in.tokenizer().impl().stop_ids
                                                : matcher_options.stop_ids),
      own_stops(!matcher_options.stop_ids.empty()),
      terminate_without_stop(matcher_options.terminate_without_stop_token),
      scratch(static_cast<std::uint32_t>(constraint_in.impl().vocabulary().size())) {
  for (const std::int32_t id : matcher_options.stop_ids)
    constraint_in.tokenizer().impl().checked(id);
  if (own_stops) several_stops = true;
}

void Matcher::Impl::add_stop_ids(std::span<std::uint32_t> words) const {
  if (!several_stops) return;
  const std::vector<std::int32_t>& stops = data().tokenizer.impl().stop_ids;
  const auto first = static_cast<std::size_t>(stops.front());
  const bool complete = ((words[first / 32] >> (first % 32)) & 1u) != 0;
  if (own_stops) {
    // The tokenizer's stop ids are special (never set as text); the matcher's may be any ids.
    for (const std::int32_t id : stops)
      words[static_cast<std::size_t>(id) / 32] &= ~(1u << (id % 32));
    for (const std::int32_t id : stop_ids) {
      const auto bit = 1u << (id % 32);
      std::uint32_t& word = words[static_cast<std::size_t>(id) / 32];
      word = complete ? (word | bit) : (word & ~bit);
    }
    return;
  }
  if (!complete) return;
  for (std::size_t i = 1; i < stops.size(); ++i) {
    const auto id = static_cast<std::size_t>(stops[i]);
    words[id / 32] |= 1u << (id % 32);
  }
}

bool Matcher::Impl::is_stop(TokenId id) const {
  if (!own_stops) return data().tokenizer.impl().is_stop[id] != 0;
  return std::find(stop_ids.begin(), stop_ids.end(), static_cast<std::int32_t>(id)) !=
         stop_ids.end();
}

bool Matcher::Impl::ended_without_stop() const {
  if (!terminate_without_stop || session.is_finished()) return false;
  if (ended_at_version == version) return ended;
  // Complete, and no byte may follow.
  ended = session.is_accepting() && !session.can_continue();
  ended_at_version = version;
  return ended;
}

// Whether `words` (the vocabulary's) leave some token out: the fill's "needs apply".
static bool restricts(std::span<const std::uint32_t> words, std::size_t vocab_size) {
  const std::size_t full = vocab_size / 32;
  for (std::size_t w = 0; w < full; ++w)
    if (words[w] != 0xffffffffu) return true;
  const std::size_t rest = vocab_size % 32;
  return rest != 0 && words[full] != (1u << rest) - 1;
}

void Matcher::Impl::record_counters(const mask::MaskEngine& engine) {
  const std::span<const mask::EngineCounter> from = engine.last_step_counters();
  num_counters = std::min(from.size(), kMaxCounters);
  for (std::size_t i = 0; i < num_counters; ++i) counters[i] = {from[i].name, from[i].value};
}

void Matcher::Impl::fill(std::span<std::uint32_t> words) {
  if (view_engine) view_engine.release();
  EnginePool::Lease engine = engines->borrow();
  engine->fill_mask(session, words);
  record_counters(*engine);
  add_stop_ids(words);
}

Matcher::Matcher(const Constraint& constraint, const MatcherOptions& options)
    : impl_(std::make_unique<Impl>(
          constraint, session_options(constraint.limits(), options.max_rollback), options)) {}

Matcher::Matcher(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Matcher::~Matcher() = default;
Matcher::Matcher(Matcher&&) noexcept = default;
Matcher& Matcher::operator=(Matcher&&) noexcept = default;

Matcher Matcher::clone() const {
  MatcherOptions options;
  if (impl_->own_stops) options.stop_ids = impl_->stop_ids;
  options.terminate_without_stop_token = impl_->terminate_without_stop;
  auto copy = std::make_unique<Impl>(impl_->constraint, impl_->options, options);
  copy->session = impl_->session.clone();
  return Matcher(std::move(copy));
}

std::size_t Matcher::bitmask_words() const {
  return impl_->word_count;
}

bool Matcher::fill_next_token_bitmask(std::span<std::uint32_t> row) {
  const std::size_t words = bitmask_words();
  require_row(row.size(), words);
  std::fill(row.begin() + static_cast<std::ptrdiff_t>(words), row.end(), 0u);
  if (impl_->ended_without_stop()) {
    std::fill(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(words), 0u);
    return true;
  }
  impl_->fill(row.first(words));
  return row.size() > words || restricts(row, impl_->data().vocabulary().size());
}

bool Matcher::fill_next_token_bitmask(std::span<std::int32_t> row) {
  // int32 and uint32 words have the same size and bits; the layout is the same.
  return fill_next_token_bitmask(
      std::span<std::uint32_t>(reinterpret_cast<std::uint32_t*>(row.data()), row.size()));
}

std::span<const std::uint32_t> Matcher::next_token_mask() {
  Impl& impl = *impl_;
  if (impl.ended_without_stop()) {
    std::fill(impl.scratch.words().begin(), impl.scratch.words().end(), 0u);
    return impl.scratch.words();
  }
  if (!impl.view_engine) impl.view_engine = impl.engines->borrow();
  std::span<const std::uint32_t> view =
      impl.view_engine->mask_view(impl.session, impl.scratch.words());
  impl.record_counters(*impl.view_engine);
  if (impl.several_stops) {
    // The engine's cached mask is shared: add the other stop ids to a copy.
    if (view.data() != impl.scratch.words().data())
      std::copy(view.begin(), view.end(), impl.scratch.words().begin());
    impl.add_stop_ids(impl.scratch.words());
    view = impl.scratch.words();
  }
  return view;
}

std::span<const MaskCounter> Matcher::last_mask_counters() const {
  return std::span<const MaskCounter>(impl_->counters.data(), impl_->num_counters);
}

bool Matcher::accept_token(std::int32_t token) {
  Impl& impl = *impl_;
  ++impl.version;
  const Tokenizer::Impl& tokenizer = impl.data().tokenizer.impl();
  const TokenId id = tokenizer.checked(token);
  impl.view_engine.release();
  if (impl.session.is_finished() || impl.ended_without_stop()) return false;
  if (impl.is_stop(id)) {
    if (!impl.session.is_accepting()) return false;
    impl.session.commit_end();
    return true;
  }
  if (tokenizer.vocabulary.is_special(id)) return false;
  return impl.session.try_commit_bytes(tokenizer.vocabulary.bytes(id));
}

void Matcher::commit_token(std::int32_t token) {
  Impl& impl = *impl_;
  ++impl.version;
  const Tokenizer::Impl& tokenizer = impl.data().tokenizer.impl();
  const TokenId id = tokenizer.checked(token);
  impl.view_engine.release();
  if (impl.session.is_finished())
    throw RejectionError(
        fmt::format("token id {} refused: the text has ended (a stop id was "
                    "accepted at byte offset {})",
                    token, impl.session.byte_offset()),
        ErrorLocation::at_byte(static_cast<std::int64_t>(impl.session.byte_offset()), token), {});
  if (impl.is_stop(id)) {
    impl.session.commit_end(id);  // throws a RejectionError when the text is not complete
    return;
  }
  impl.session.commit(id);  // throws a RejectionError naming the byte and the expected terminals
}

bool Matcher::accept_tokens(std::span<const std::int32_t> tokens) {
  if (tokens.size() == 1) return accept_token(tokens.front());
  // On a clone, so that a refusal leaves this matcher as it was; the clone shares the history.
  Matcher trial = clone();
  for (const std::int32_t token : tokens)
    if (!trial.accept_token(token)) return false;
  impl_->view_engine.release();
  ++impl_->version;
  impl_->session = std::move(trial.impl_->session);
  return true;
}

std::size_t Matcher::validate_tokens(std::span<const std::int32_t> tokens) const {
  Matcher trial = clone();
  std::size_t accepted = 0;
  for (const std::int32_t token : tokens) {
    if (!trial.accept_token(token)) break;
    ++accepted;
  }
  return accepted;
}

namespace {

// Where `bytes` hold 0xFF, which no text has: in a constraint with token terminals it begins a
// token's stand-in (lib/core/token_terminal.h), which only the token itself may write.
std::size_t token_lead_in(std::string_view bytes) {
  return bytes.find(static_cast<char>(kTokenTerminalLead));
}

}  // namespace

bool Matcher::accept_bytes(std::string_view bytes) {
  ++impl_->version;
  impl_->view_engine.release();
  if (impl_->session.is_finished() || token_lead_in(bytes) != std::string_view::npos) return false;
  return impl_->session.try_commit_bytes(bytes);
}

void Matcher::commit_bytes(std::string_view bytes) {
  ++impl_->version;
  impl_->view_engine.release();
  if (const std::size_t at = token_lead_in(bytes); at != std::string_view::npos) {
    const auto offset = static_cast<std::int64_t>(impl_->session.byte_offset() + at);
    throw RejectionError(fmt::format("byte 0xFF at byte offset {} refused: no UTF-8 text has it "
                                     "(a token the grammar names is accepted by its id)",
                                     offset),
                         ErrorLocation::at_byte(offset), {});
  }
  impl_->session.commit_bytes(bytes);
}

void Matcher::rollback(std::size_t steps) {
  ++impl_->version;
  impl_->view_engine.release();
  impl_->session.rollback(steps);
}

std::size_t Matcher::rollback_capacity() const {
  return impl_->session.rollback_capacity();
}

void Matcher::reset() {
  Impl& impl = *impl_;
  ++impl.version;
  impl.view_engine.release();
  impl.session = glr::Session(impl.data().recognizer, &impl.data().vocabulary(), impl.options);
}

bool Matcher::is_accepting() const {
  return !impl_->session.is_finished() && impl_->session.is_accepting();
}

bool Matcher::is_terminated() const {
  return impl_->session.is_finished() || impl_->ended_without_stop();
}

std::span<const std::int32_t> Matcher::stop_ids() const {
  return impl_->stop_ids;
}

std::uint64_t Matcher::byte_offset() const {
  return impl_->session.byte_offset();
}

std::size_t Matcher::steps() const {
  return impl_->session.num_commits();
}

std::string Matcher::find_jump_forward_string() {
  return forced_continuation(impl_->data(), impl_->session, kMaxForcedBytes);
}

std::vector<std::int32_t> Matcher::find_jump_forward_tokens() {
  const std::string forced = find_jump_forward_string();
  std::vector<std::int32_t> tokens;
  if (forced.empty()) return tokens;
  const Tokenizer::Impl& tokenizer = impl_->data().tokenizer.impl();
  // The encoder's tokens, when it takes the string (it may end inside a UTF-8 character) and
  // the matcher accepts every one of them.
  if (tokenizer.encoder) {
    try {
      const std::vector<TokenId> ids = tokenizer.encoder->encode(forced);
      glr::Session trial = impl_->session.clone();
      bool accepted = true;
      for (const TokenId id : ids)
        if (tokenizer.vocabulary.is_special(id) ||
            !trial.try_commit_bytes(tokenizer.vocabulary.bytes(id))) {
          accepted = false;
          break;
        }
      if (accepted) return std::vector<std::int32_t>(ids.begin(), ids.end());
    } catch (const Error&) {
      // Not valid UTF-8 on its own: fall back to the vocabulary's longest pieces.
    }
  }
  // Longest token that is a prefix of the rest, left to right. Every prefix of the forced string
  // is viable, so each of them is accepted.
  const Tokenizer::Impl::Spelling& spelling = tokenizer.spelling();
  std::size_t at = 0;
  while (at < forced.size()) {
    const std::string_view rest = std::string_view(forced).substr(at);
    std::size_t length = std::min(rest.size(), spelling.longest);
    for (; length > 0; --length) {
      const auto found = spelling.token_of.find(rest.substr(0, length));
      if (found == spelling.token_of.end()) continue;
      tokens.push_back(static_cast<std::int32_t>(found->second));
      break;
    }
    if (length == 0) break;  // no token spells the next byte
    at += length;
  }
  return tokens;
}

const Constraint& Matcher::constraint() const {
  return impl_->constraint;
}

void fill_next_token_bitmasks(std::span<Matcher* const> matchers, std::span<std::int32_t> bitmask,
                              std::size_t row_words) {
  if (!matchers.empty() && bitmask.size() / matchers.size() < row_words)
    throw Error(fmt::format("the bitmask has {} words: {} rows of {} words need {}", bitmask.size(),
                            matchers.size(), row_words, matchers.size() * row_words),
                ErrorCode::kInvalidArgument);
  for (const Matcher* matcher : matchers)
    if (matcher != nullptr) require_row(row_words, matcher->bitmask_words());
  // A matcher is used by one thread at a time: twice in a batch, two threads would share it.
  std::vector<const Matcher*> distinct;
  for (const Matcher* matcher : matchers)
    if (matcher != nullptr) distinct.push_back(matcher);
  std::sort(distinct.begin(), distinct.end());
  if (std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end())
    throw Error("the same matcher is in the batch twice; give each row a matcher of its own",
                ErrorCode::kInvalidArgument);
  const auto fill = [&](std::size_t i) {
    if (matchers[i] != nullptr)
      matchers[i]->fill_next_token_bitmask(bitmask.subspan(i * row_words, row_words));
  };
  // Most rows cost under a microsecond (a cached mask copied out), less than waking a worker
  // thread, so the rows are filled in order on the calling thread until the batch has taken
  // kSerialBudget; only the rows left then are spread over the workers. A batch of cheap rows
  // never pays for threads; one of costly rows (a fork's first walk, Python's deferred tokens)
  // goes parallel after a few rows.
  constexpr auto kSerialBudget = std::chrono::microseconds(20);
  const auto start = std::chrono::steady_clock::now();
  std::size_t next = 0;
  while (next < matchers.size()) {
    fill(next++);
    if (std::chrono::steady_clock::now() - start > kSerialBudget) break;
  }
  if (matchers.size() - next >= 2) {
    tbb::parallel_for(next, matchers.size(), fill);
  } else if (next < matchers.size()) {
    fill(next);
  }
}

void apply_token_bitmask_inplace(std::span<float> logits, std::span<const std::int32_t> row) {
  const std::size_t n = std::min(logits.size(), row.size() * 32);
  for (std::size_t i = 0; i < n; ++i)
    if (((static_cast<std::uint32_t>(row[i / 32]) >> (i % 32)) & 1u) == 0)
      logits[i] = -std::numeric_limits<float>::infinity();
  // Past the row: no id there may be sampled (a model's padded vocabulary).
  std::fill(logits.begin() + static_cast<std::ptrdiff_t>(n), logits.end(),
            -std::numeric_limits<float>::infinity());
}

}  // namespace glrmask
