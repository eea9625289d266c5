// Lowers the project's Grammar model into the LR builder's plain BNF. Symbol ids are kept as they
// are: both put terminals first, so grammar terminal i is parser terminal i.
#pragma once

#include "glr/cfg.h"
#include "lib/grammar/grammar.h"

namespace glrmask::glr {

Cfg cfg_from_grammar(const Grammar& grammar);

}  // namespace glrmask::glr
