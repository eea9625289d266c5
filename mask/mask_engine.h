// The interface every mask engine implements, so experiments and tests can swap them: given a
// decoding session's parse state (glr::ParseView: the narrow part of a session a mask depends on;
// a Session converts to it), fill the dense bitmask of the tokens that may come next.
//
// Contract (docs/oracle.md): bit i of `words` (bit i % 32 of word i / 32) is set iff token i is not
// special and the session's text followed by the token's bytes is still viable; the vocabulary's
// EOS bit is set iff the text is already a complete sentence (Session::is_accepting()). Every
// other bit, including those past the vocabulary size, is zero. A finished session (EOS
// committed) gets an empty mask. `words.size()` must be dense_word_count(vocabulary size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "glr/parse_view.h"

namespace glrmask::mask {

// One named measurement an engine took during its last fill_mask() (e.g. the GSS depth at which
// it stopped), for the latency studies. `name` must point at storage that outlives the engine
// (a string literal).
struct EngineCounter {
  std::string_view name;
  double value = 0;
};

class MaskEngine {
 public:
  virtual ~MaskEngine() = default;

  // A short name for reports and command-line options ("oracle", "wfa", ...).
  virtual std::string_view name() const = 0;

  // Throws glrmask::Error when `words` has the wrong size.
  virtual void fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) = 0;

  // The same mask as fill_mask(), either written into `scratch` (which must have the size
  // fill_mask() wants) and returned, or returned as a view of storage the engine owns, valid until
  // the next call to this engine. An engine that keeps the dense results of recurring steps (wfa)
  // hands those out without copying them: with a 262k-token vocabulary that copy is most of a
  // cached step (experiments/results/tail_latency/LOG.md). A caller that reads the mask once (to
  // mask logits, to test a token) loses nothing by not owning it.
  virtual std::span<const std::uint32_t> mask_view(const glr::ParseView& parse,
                                                   std::span<std::uint32_t> scratch) {
    fill_mask(parse, scratch);
    return scratch;
  }

  // Counters of the last fill_mask() call, in a fixed order per engine; empty when the engine
  // keeps none. Valid until the next fill_mask() call.
  virtual std::span<const EngineCounter> last_step_counters() const { return {}; }
};

// The two preconditions of fill_mask() every engine checks, with one wording: `words` holds
// dense_word_count(universe) words, and `parse` runs on the grammar the engine was built for.
// Each throws glrmask::Error naming the engine (`engine`: "wfa", "oracle", ...) otherwise.
void check_mask_words(std::string_view engine, std::size_t words, std::uint32_t universe);
void check_session_grammar(std::string_view engine, const glr::ParseView& parse,
                           const glr::CompiledGrammar& grammar);

}  // namespace glrmask::mask
