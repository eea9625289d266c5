// The wfa engine's strategy for a grammar with Python's indenter (glr/indenter.h; docs/wfa.md,
// "Indenter"). The indenter's state (bracket depth, indentation levels) is unbounded, so the
// Parser DWA leaves what depends on it to branch groups whose ways carry conditions on that state
// (mask/parser_dwa/indenter_condition.h). A step walks once per indenter branch of the session's
// position (ParsePosition::branches) and per entry; where a transition leads to a branch group it
// takes the ways whose conditions hold for the branch's state, counting the _INDENT frames passed
// so that a condition on a lower level knows which level the frame read stands for. Tokens the
// automaton left to get_mask (deferred) are tried on the session. The engine's caches, walk state
// and counters are the WfaEngine's own; this class holds only what the indenter adds.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "glr/fork_texts.h"
#include "glr/gss.h"
#include "glr/indenter.h"
#include "glr/parse_view.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/parser_dwa/indenter_condition.h"
#include "mask/parser_dwa/parser_dwa.h"

namespace glrmask::mask {

class WfaEngine;

class IndentedWalk {
 public:
  // `compiled` is of a grammar with an indenter, and outlives the walk.
  explicit IndentedWalk(const CompiledMask& compiled);

  // WfaEngine::compute for a grammar with an indenter, through `engine`'s caches.
  const std::uint32_t* compute(WfaEngine& engine, const glr::ParseView& parse,
                               std::span<std::uint32_t> words);

 private:
  struct Pending {
    const glr::GssNode* node;
    DwaStateId state;
    std::uint32_t depth;
    std::uint32_t frames_above;  // open _INDENT frames read before this node
    bool closed_frame_pending;   // the head shifted a _DEDENT: the next frame read is closed
  };

  // Collects the weights (and the deferred ones) of the transitions and branch ways taken from
  // `start` on the heads' stacks, for a branch whose indenter state is `context`.
  void walk(WfaEngine& engine, DwaStateId start, std::span<const glr::GssNodeRef> heads,
            const IndenterContext& context);

  const glr::IndenterSpec& indenter_;
  std::vector<char> indent_frame_;  // per LR state: entered by shifting _INDENT
  std::vector<char> dedent_state_;  // per LR state: entered by shifting _DEDENT
  const char* has_future_;          // CompiledMask::forks_with_future()
  glr::IncrementalForkTexts fork_texts_;
  std::vector<Pending> pending_;
  std::vector<TokenSetId> deferred_;  // weights whose tokens are tried on the session
};

}  // namespace glrmask::mask
