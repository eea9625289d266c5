// The mask engines by name for the studies (experiments/, `--engines`), the engine benchmark
// (benchmarks/mask_engine_bench.cpp) and the tests: every engine of the library's registry
// (api/src/engine_registry.h), built on its own from a compiled grammar and a vocabulary. The
// glrmask commands' `--engine` and `--compare` go through the library facade instead
// (apps/constraint_options.h), which reads the same registry.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/src/engine_registry.h"
#include "mask/mask_engine.h"

namespace glrmask {

// The registered engines' names ("wfa", "spanner", ...), in the registry's order.
std::vector<std::string> mask_engine_names();

// Builds the engine called `name` from `inputs` (a grammar and a vocabulary at least); throws
// glrmask::Error naming `option` (e.g. "--engines") for an unknown name, and the engine's own
// error (kUnsupported) for a grammar it refuses.
std::unique_ptr<mask::MaskEngine> make_mask_engine(std::string_view name,
                                                   const EngineInputs& inputs,
                                                   std::string_view option);

}  // namespace glrmask
