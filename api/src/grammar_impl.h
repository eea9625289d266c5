// What a glrmask::Grammar handle holds: the source it was made from and the grammar model its
// front end built, with the model's warnings in the public shape.
#pragma once

#include <memory>
#include <vector>

#include "api/src/constraint_source.h"
#include "glrmask/grammar.hpp"
#include "lib/grammar/grammar_model.h"

namespace glrmask {

struct Grammar::Impl {
  ConstraintSource source;
  std::shared_ptr<const GrammarModel> model;
  std::vector<Warning> warnings;

  // Runs the source's front end. Throws its errors.
  static std::shared_ptr<const Impl> build(ConstraintSource source);
  // Over a model built elsewhere (a loaded artifact's, a caller's engine's).
  static std::shared_ptr<const Impl> over(ConstraintSource source,
                                          std::shared_ptr<const GrammarModel> model);
};

}  // namespace glrmask
