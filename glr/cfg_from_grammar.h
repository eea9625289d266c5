// Lowers the project's GrammarModel into the LR builder's plain BNF. Symbol ids are kept as they
// are: both put terminals first, so grammar terminal i is parser terminal i.
#pragma once

#include "glr/cfg.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::glr {

Cfg cfg_from_grammar(const GrammarModel& grammar);

}  // namespace glrmask::glr
