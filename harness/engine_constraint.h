// Constraints over engines the caller builds: the studies and tests that drive every engine of the
// registry (harness/mask_engines.h), or Parser DWA variants CompileOptions does not choose, through
// the same matchers and teacher-forcing loop (teacher_forcing.h) as the library's users.
#pragma once

#include <memory>

#include "glr/compiled_grammar.h"
#include "glrmask/constraint.hpp"
#include "glrmask/tokenizer.hpp"
#include "lib/tokenizer/vocabulary.h"
#include "mask/mask_engine.h"

namespace glrmask {

// A constraint over `grammar` (compiled elsewhere, with the recognizer's default limits) whose
// matchers run `engine`, which must read `tokenizer`'s vocabulary and support `grammar`. The
// constraint has that one engine: it serves one mask call at a time (one matcher driven on one
// thread; a second concurrent call throws glrmask::Error). `kind` is what engine() reports.
// Such a constraint cannot be saved (save() throws kUnsupported): its engine is not one the
// artifact format records.
Constraint constraint_over_engine(const Tokenizer& tokenizer,
                                  std::shared_ptr<const glr::CompiledGrammar> grammar,
                                  std::unique_ptr<mask::MaskEngine> engine,
                                  Engine kind = Engine::kOracle);

// The same over an engine the caller keeps, which must outlive the constraint and its matchers
// (the tests' engines, built on the stack and compared with each other).
Constraint constraint_over_engine(const Tokenizer& tokenizer,
                                  std::shared_ptr<const glr::CompiledGrammar> grammar,
                                  mask::MaskEngine& engine, Engine kind = Engine::kOracle);

// A tokenizer handle holding a copy of `vocabulary` (its EOS the one stop id), without an
// encoder: for tests and studies whose engines were built on a vocabulary of their own (a padded
// one, a hand-made one). Throws glrmask::Error when the vocabulary has no EOS.
Tokenizer tokenizer_over(const Vocabulary& vocabulary);

}  // namespace glrmask
