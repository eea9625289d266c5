// Rewrites the rules behind unbounded reductions (unbounded_reductions.h) into rules that
// derive the same language without them, so that reductions always end. We only recognize, so
// parse trees (rule identity) need not survive; the language must, exactly.
//
// The rewrite touches only the region R: the nonterminals of the left-corner components that
// hold a loop. Every nullable symbol N used there is split into N' (the non-empty strings of N)
// and the empty string:
//   - a rule of a nonterminal A in R is replaced by its variants in which each nullable symbol
//     is either N' or left out (the all-left-out variant is the empty string);
//   - a nullable A in R becomes `A -> A' | ε`, and its variants become rules of A';
//   - N' for N outside R has one rule per rule of N and position j whose left part N1..Nj-1 is
//     nullable: N' -> Nj' Nj+1 .. Nm (Nj' = Nj when Nj is not nullable), which is linear in size.
// Inside R no rule then has a nullable symbol, so a left corner is always the first symbol (no
// hidden left recursion) and a derivation cycle is a cycle of unit rules A' -> B'. Those derive
// the same language, so each unit cycle is merged into one nonterminal. Outside R nothing
// changes, and a grammar without the constructs is returned as it is.
//
// A rule with k nullable symbols has up to 2^k variants: the blow-up is bounded (limits below)
// and a grammar that would exceed it is left as written, with the reason and the rules named.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "glr/cfg.h"
#include "glr/unbounded_reductions.h"

namespace glrmask::glr {

struct NormalizationLimits {
  // Variants one rewritten rule may have (a rule with k nullable symbols has 2^k).
  std::size_t max_variants_per_rule = 256;
  // Rules the normalized grammar may have beyond the original's.
  std::size_t max_added_rules = 4096;
};

struct CfgNormalization {
  // What the grammar as written has; empty means there was nothing to do.
  UnboundedReductions found;
  std::string found_text;  // found.describe() against the grammar as written
  // Set when found is non-empty and the grammar was rewritten.
  bool normalized = false;
  // Set when found is non-empty and the grammar was left as written: why.
  std::string refusal;
  std::vector<std::string> rewritten_nonterminals;  // names of the region R
  std::vector<std::string> added_nonterminals;      // names of the N' copies kept
  std::vector<std::string> merged;                  // unit cycles merged: "a = b'"
  std::size_t rules_before = 0;
  std::size_t rules_after = 0;

  // For `glrmask compile`: "none", or what was found and what was done. Ends with a newline.
  std::string describe() const;
};

// Normalizes `cfg` in place when it has unbounded reductions, within `limits`; otherwise (also
// when the limits refuse) leaves it unchanged. Never throws for a valid Cfg.
CfgNormalization normalize_unbounded_reductions(Cfg& cfg, const NormalizationLimits& limits = {});

}  // namespace glrmask::glr
