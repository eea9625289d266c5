// The mask engines by name for the studies (experiments/, `--engines`) and the engine benchmark
// (benchmarks/mask_engine_bench.cpp). Each engine registers a factory in the table in
// mask_engines.cpp. The glrmask commands' `--engine` and `--compare` do not use this table: they
// go through the library facade (constraint_options.h, parse_engine).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "glr/compiled_grammar.h"
#include "lib/tokenizer/vocabulary.h"
#include "wfa/compiled_mask.h"
#include "wfa/mask_engine.h"

namespace glrmask::app {

// What a factory may build its engine from. Both outlive the engine. `compiled`, when set, is a
// compilation for the wfa engine loaded from an artifact (used instead of compiling again).
struct MaskEngineInputs {
  std::shared_ptr<const glr::CompiledGrammar> grammar;
  const Vocabulary* vocabulary = nullptr;
  std::shared_ptr<const wfa::CompiledMask> compiled = nullptr;
};

struct MaskEngineEntry {
  std::string_view name;
  std::string_view description;
  std::function<std::unique_ptr<wfa::MaskEngine>(const MaskEngineInputs&)> make;
};

// Every registered engine, in the order `--help` lists them.
std::span<const MaskEngineEntry> mask_engines();

// The known names, comma-separated (for usage lines and errors).
std::string mask_engine_names();

// Builds the engine called `name`; throws glrmask::Error naming `option` (e.g. "--engine"), the
// unknown name and the known ones.
std::unique_ptr<wfa::MaskEngine> make_mask_engine(std::string_view name,
                                                  const MaskEngineInputs& inputs,
                                                  std::string_view option);

}  // namespace glrmask::app
