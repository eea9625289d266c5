// How the tokens the lexer emits reach the parser stacks: the one part of the recognizer that
// depends on the grammar's post-lexer. IncrementalRecognizer's bookkeeping (lexing a chunk,
// feeding its tokens, the viability test over lexer forks, acceptance) is written once, as
// templates over one of these (incremental_recognizer.cpp):
//
//  - IdentityPostLexing: no post-lexer. A token's terminals go to the stacks as they are; the
//    stacks are the position's heads.
//  - IndenterPostLexing: Python's indenter (glr/indenter.h). Tokens go through the indenter, so
//    the position keeps, per indenter state, the stacks that reached it (ParsePosition::branches),
//    and a token's text summary decides what a newline becomes (docs/indenter.md).
//
// Both offer the same members: `Stacks`, `kReadsText` (whether token texts must be tracked),
// stacks(position), publish(position) (after feeding: make position.heads the union),
// heads_of(stacks), feed(stacks, label, text, why), allows(futures, fork, stacks) and
// finishes(stacks). Internal to the recognizer: include it only from its source files.
#pragma once

#include <span>
#include <vector>

#include "glr/incremental_recognizer.h"

namespace glrmask::glr {

class IncrementalRecognizer::IdentityPostLexing {
 public:
  using Stacks = GssHeads;
  static constexpr bool kReadsText = false;

  explicit IdentityPostLexing(const IncrementalRecognizer& recognizer) : r_(recognizer) {}

  static Stacks& stacks(ParsePosition& position) { return position.heads; }
  static const Stacks& stacks(const ParsePosition& position) { return position.heads; }
  static void publish(ParsePosition& /*position*/) {}
  static const GssHeads& heads_of(const Stacks& stacks) { return stacks; }

  bool feed(Stacks& stacks, lexer::LabelId label, IndentScan /*text*/, Rejection* why) const {
    if (r_.feed_token(stacks, label)) return true;
    if (why != nullptr) why->kind = Rejection::Kind::kUnexpectedToken;
    return false;
  }
  bool allows(const lexer::ForkFutures& futures, lexer::ForkFutures::Id fork,
              const Stacks& stacks) const {
    return r_.fork_allows(futures, fork, stacks);
  }
  bool finishes(const Stacks& stacks) const { return r_.parser_.accepts_end(stacks); }

 private:
  const IncrementalRecognizer& r_;
};

class IncrementalRecognizer::IndenterPostLexing {
 public:
  using Stacks = std::vector<IndentedStacks>;
  static constexpr bool kReadsText = true;

  explicit IndenterPostLexing(const IncrementalRecognizer& recognizer)
      : r_(recognizer), spec_(*recognizer.indenter_) {}

  static Stacks& stacks(ParsePosition& position) { return position.branches; }
  static const Stacks& stacks(const ParsePosition& position) { return position.branches; }
  static void publish(ParsePosition& position) { position.heads = heads_of(position.branches); }
  // The union of the branches' heads.
  static GssHeads heads_of(const Stacks& branches);

  // Runs the token through the indenter on every branch and feeds what it gives to the
  // branch's stacks; branches that end in the same indenter state merge. False when no branch
  // takes the token (*why says whether the indenter or the parser refused it).
  bool feed(Stacks& branches, lexer::LabelId label, IndentScan text, Rejection* why) const;
  // Some branch lets the text go on after this fork (docs/indenter.md, "Viability").
  bool allows(const lexer::ForkFutures& futures, lexer::ForkFutures::Id fork,
              const Stacks& branches) const;
  // Some branch accepts the end of input after the indenter's final _DEDENTs.
  bool finishes(const Stacks& branches) const;

  const IndenterSpec& spec() const { return spec_; }

 private:
  bool branch_allows(const lexer::ForkFutures& futures, lexer::ForkFutures::Id fork,
                     const IndentedStacks& branch) const;
  bool newline_takeable(const IndentedStacks& branch) const;
  bool continues_after_newline(const IndentedStacks& branch) const;
  bool branch_finishes(const IndentedStacks& branch) const;
  bool shifts_ordinary(std::span<const GssNodeRef> heads, const IndenterState& indenter,
                       const lexer::ForkFutures* futures, lexer::ForkFutures::Id fork) const;

  const IncrementalRecognizer& r_;
  const IndenterSpec& spec_;
};

}  // namespace glrmask::glr
