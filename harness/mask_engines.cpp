#include "harness/mask_engines.h"

#include <fmt/format.h>

#include "lib/core/error.h"

namespace glrmask {

std::vector<std::string> mask_engine_names() {
  std::vector<std::string> names;
  for (const EngineEntry& entry : engine_registry()) names.emplace_back(engine_name(entry.engine));
  return names;
}

std::unique_ptr<mask::MaskEngine> make_mask_engine(std::string_view name,
                                                   const EngineInputs& inputs,
                                                   std::string_view option) {
  if (!inputs.grammar || inputs.vocabulary == nullptr)
    throw Error(
        fmt::format("option {}: engine '{}' needs a grammar and a vocabulary", option, name),
        ErrorCode::kInvalidArgument);
  const std::optional<Engine> engine = engine_from_name(name);
  if (!engine || *engine == Engine::kAuto)
    throw Error(fmt::format("option {}: unknown mask engine '{}' (known: {})", option, name,
                            engine_names()),
                ErrorCode::kInvalidArgument);
  return engine_entry(*engine).make_engine(inputs);
}

}  // namespace glrmask
