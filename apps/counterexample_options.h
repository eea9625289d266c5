// The bounds of the counterexample searches, shared by `glrmask ambiguity` and
// `glrmask conflicts --counterexamples`: `--max-length N`, `--max-lookahead K`,
// `--max-configurations C` and `--time-limit SECONDS` (docs/ambiguity.md), each a positive number
// over glr::CounterexampleOptions' default.
#pragma once

#include <array>
#include <set>
#include <string>

#include "apps/args.h"
#include "glr/analysis/conflict_counterexample.h"

namespace glrmask::app {

// The options' names without the dashes, for Args and for commands that accept them only together
// with another option.
inline constexpr std::array<const char*, 4> kCounterexampleBoundOptions = {
    "max-length", "max-lookahead", "max-configurations", "time-limit"};

// The same names as a set, for Args' value options.
std::set<std::string> counterexample_bound_options();

// The bounds given in `args`, the defaults for the others. Throws glrmask::Error naming the option
// when a value is not a positive number (all of it).
glr::CounterexampleOptions counterexample_bounds(const Args& args);

}  // namespace glrmask::app
