#include "apps/mask_engines.h"

#include <fmt/format.h>

#include "lib/core/error.h"
#include "wfa/oracle_engine.h"
#include "wfa/spanner_engine.h"
#include "wfa/wfa_engine.h"

namespace glrmask::app {
namespace {

const MaskEngineEntry kEngines[] = {
    {"wfa",
     "the Parser DWA (Terminal DWA x LR stack effects) run over the GSS (docs/wfa.md; the "
     "default)",
     [](const MaskEngineInputs& inputs) -> std::unique_ptr<wfa::MaskEngine> {
       if (inputs.compiled)
         return std::make_unique<wfa::WfaEngine>(inputs.compiled, *inputs.vocabulary);
       return std::make_unique<wfa::WfaEngine>(inputs.grammar, *inputs.vocabulary);
     }},
    {"oracle", "tries every token on a copy of the session (the reference; slow)",
     [](const MaskEngineInputs& inputs) -> std::unique_ptr<wfa::MaskEngine> {
       return std::make_unique<wfa::OracleEngine>(*inputs.vocabulary);
     }},
    {"spanner",
     "Terminal DWA label tries on the GSS heads: a precomputed split per (lexer fork, LR state), "
     "the context-dependent rest walked on the real stack (docs/spanner.md)",
     [](const MaskEngineInputs& inputs) -> std::unique_ptr<wfa::MaskEngine> {
       return std::make_unique<wfa::SpannerEngine>(inputs.grammar, *inputs.vocabulary);
     }},
};

}  // namespace

std::span<const MaskEngineEntry> mask_engines() {
  return kEngines;
}

std::string mask_engine_names() {
  std::string names;
  for (const MaskEngineEntry& entry : mask_engines()) {
    if (!names.empty()) names += ", ";
    names += entry.name;
  }
  return names;
}

std::unique_ptr<wfa::MaskEngine> make_mask_engine(std::string_view name,
                                                  const MaskEngineInputs& inputs,
                                                  std::string_view option) {
  if (!inputs.grammar || !inputs.vocabulary)
    throw Error(
        fmt::format("option {}: engine '{}' needs a grammar and a vocabulary", option, name));
  for (const MaskEngineEntry& entry : mask_engines())
    if (entry.name == name) return entry.make(inputs);
  throw Error(fmt::format("option {}: unknown mask engine '{}' (known: {})", option, name,
                          mask_engine_names()));
}

}  // namespace glrmask::app
