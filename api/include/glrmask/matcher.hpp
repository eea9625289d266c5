// The state of one sequence under a constraint: the text generated so far, and the questions a
// decoding loop asks about it.
//
//   glrmask::Matcher matcher(constraint);
//   matcher.fill_next_token_bitmask(row);   // before sampling: which tokens may come next
//   matcher.accept_token(sampled);          // after sampling
//
// The bitmask is the layout inference engines apply to logits: 32-bit words, bit i % 32 of word
// i / 32 set iff token i may come next; a row of a [batch, words] int32 tensor. The mask is exact:
// a token is allowed iff the text followed by its bytes can still be completed to a sentence of
// the constraint; a stop id is allowed iff the text already is one.
//
// A matcher is used by one thread at a time; different matchers (also of one constraint) may be
// used concurrently. Nothing a matcher refuses changes its state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "glrmask/constraint.hpp"

namespace glrmask {

struct MatcherOptions {
  // How many of the latest accepted tokens rollback() can undo (speculative decoding).
  std::size_t max_rollback = 1024;
  // The ids that end this matcher's text instead of the tokenizer's stop ids (a request's own stop
  // tokens); empty: the tokenizer's. Any id of the vocabulary: it is a stop id here only, allowed
  // exactly when the text is complete, and never taken as text.
  std::vector<std::int32_t> stop_ids;
  // The text ends by itself as soon as it is complete and nothing may follow, without a stop id
  // (is_terminated() is then true and the mask empty).
  bool terminate_without_stop_token = false;
};

// One measurement the engine took while computing the last mask (GSS pairs visited, stack depth
// read, cache hits, ...), for latency studies.
struct MaskCounter {
  std::string_view name;  // a literal: valid for the program's lifetime
  double value = 0;
};

class GLRMASK_API Matcher {
 public:
  explicit Matcher(const Constraint& constraint, const MatcherOptions& options = {});
  ~Matcher();
  Matcher(Matcher&&) noexcept;
  Matcher& operator=(Matcher&&) noexcept;
  // Copying is explicit (clone()): a copy shares the text's parse state and history with the
  // original and costs a few pointer copies.
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;
  Matcher clone() const;

  // ---- the mask ----
  // Writes the mask of the next token into `row`, which must hold at least bitmask_words() words;
  // words beyond (a model whose logits are padded past the vocabulary) are set to zero. Throws
  // glrmask::Error (kInvalidArgument) for a row too short.
  // Returns whether the mask restricts anything: false when every token of the vocabulary is
  // allowed, so that applying it would change no logit (then a caller may skip the apply).
  bool fill_next_token_bitmask(std::span<std::int32_t> row);
  bool fill_next_token_bitmask(std::span<std::uint32_t> row);
  // The same mask without copying it where the engine keeps it (a recurring mask is cached): a
  // view of bitmask_words() words, valid until the next call on this matcher.
  std::span<const std::uint32_t> next_token_mask();
  std::size_t bitmask_words() const;
  // What the engine measured while computing the last mask (empty for engines that keep none).
  std::span<const MaskCounter> last_mask_counters() const;

  // ---- advancing ----
  // Appends the token's bytes, or ends the text for a stop id. Returns false, leaving the state
  // unchanged, when the mask does not allow the token (also: a special token, any token after the
  // text ended, a stop id before the text is complete). Throws glrmask::Error (kInvalidArgument)
  // only for an id outside the vocabulary.
  bool accept_token(std::int32_t token);
  // Accepts `tokens` in order: true when all are accepted; false, leaving the state as it was
  // before the call, when one is not.
  bool accept_tokens(std::span<const std::int32_t> tokens);
  // How many of `tokens`, from the first, would be accepted one after another; the state does not
  // change (speculative decoding's check of draft tokens).
  std::size_t validate_tokens(std::span<const std::int32_t> tokens) const;
  // As accept_token, but a refusal throws a RejectionError that carries the byte offset, the token
  // and the terminals that were expected.
  void commit_token(std::int32_t token);
  // Raw bytes (a jump-forward string, a prompt's prefix of the answer), as one step of the history.
  bool accept_bytes(std::string_view bytes);
  void commit_bytes(std::string_view bytes);
  // Undoes the last `steps` accepted tokens or byte strings. Throws glrmask::Error (kState) when
  // fewer are kept (see rollback_capacity()).
  void rollback(std::size_t steps);
  std::size_t rollback_capacity() const;
  // Back to the empty text (and the history cleared).
  void reset();

  // ---- the state ----
  // The text so far is a complete sentence: a stop id may come now.
  bool is_accepting() const;
  // A stop id was accepted (or, with terminate_without_stop_token, the text is complete and
  // nothing may follow): the text has ended, the mask is empty.
  bool is_terminated() const;
  // The ids that end this matcher's text (MatcherOptions::stop_ids, else the tokenizer's).
  std::span<const std::int32_t> stop_ids() const;
  // Bytes of the text so far.
  std::uint64_t byte_offset() const;
  // Tokens and byte strings accepted so far (a stop id counts).
  std::size_t steps() const;

  // ---- jump-forward ----
  // The longest byte string every completion of the text starts with: the bytes a server may
  // append without sampling (`{"name": "` after `{` under a schema whose first property is a
  // required "name"). Empty when the text is complete or the next byte is not forced. May end
  // inside a UTF-8 character. Does not change the state.
  std::string find_jump_forward_string();
  // The forced string as tokens the matcher accepts one after another: the tokenizer's encoding
  // of it when the tokenizer has an encoder and that encoding is accepted, otherwise the longest
  // vocabulary tokens that fit, left to right. Tokens may tokenize the text differently from how
  // the model would have; servers that care re-tokenize.
  std::vector<std::int32_t> find_jump_forward_tokens();

  const Constraint& constraint() const;

  struct Impl;
  Impl& impl() { return *impl_; }
  const Impl& impl() const { return *impl_; }

 private:
  explicit Matcher(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Fills row i of `bitmask` (rows of `row_words` words, row_words >= each matcher's
// bitmask_words()) with matchers[i]'s mask: in order on the calling thread while the batch is
// cheap (a few microseconds), the remaining rows in parallel (TBB) once it is not. Each row equals
// what fill_next_token_bitmask() writes. `bitmask` must hold matchers.size() * row_words words. A
// null matcher leaves its row untouched. Throws glrmask::Error (kInvalidArgument) for sizes that do
// not fit.
GLRMASK_API void fill_next_token_bitmasks(std::span<Matcher* const> matchers,
                                          std::span<std::int32_t> bitmask, std::size_t row_words);

// Sets logits[i] to -infinity where bit i of `row` is clear, and every logit past the row's
// 32 * words (a model's padded vocabulary: no id there may be sampled).
GLRMASK_API void apply_token_bitmask_inplace(std::span<float> logits,
                                             std::span<const std::int32_t> row);

}  // namespace glrmask
