#include "api/src/engine_constraint.h"

#include <fmt/format.h>

#include "api/src/constraint_impl.h"
#include "lib/core/error.h"

namespace glrmask {

Constraint constraint_over_engine(const Tokenizer& tokenizer,
                                  std::shared_ptr<const glr::CompiledGrammar> grammar,
                                  std::unique_ptr<wfa::MaskEngine> engine, Engine kind) {
  if (!grammar || !engine)
    throw Error("a constraint over an engine needs a grammar and an engine",
                ErrorCode::kInvalidArgument);
  auto impl = std::make_shared<Constraint::Impl>(tokenizer);
  impl->source.name = fmt::format("<{} over a grammar compiled by the caller>", engine->name());
  impl->engine = kind;
  impl->external_engine = true;
  impl->grammar = grammar;
  impl->recognizer = std::make_shared<const glr::IncrementalRecognizer>(std::move(grammar));
  impl->statistics.lr_states = impl->grammar->table().num_states();
  const std::string name(engine->name());
  impl->engines = std::make_unique<EnginePool>(
      [name]() -> std::unique_ptr<wfa::MaskEngine> {
        throw Error(fmt::format("the constraint over the caller's {} engine serves one mask call "
                                "at a time",
                                name),
                    ErrorCode::kInvalidArgument);
      },
      0);
  impl->engines->give(std::move(engine));
  return Constraint::wrap(std::move(impl));
}

}  // namespace glrmask
