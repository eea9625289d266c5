#include "harness/engine_constraint.h"

#include <fmt/format.h>

#include "api/src/constraint_impl.h"
#include "api/src/tokenizer_impl.h"
#include "lib/core/error.h"

namespace glrmask {

Constraint constraint_over_engine(const Tokenizer& tokenizer,
                                  std::shared_ptr<const glr::CompiledGrammar> grammar,
                                  std::unique_ptr<mask::MaskEngine> engine, Engine kind) {
  if (!grammar || !engine)
    throw Error("a constraint over an engine needs a grammar and an engine",
                ErrorCode::kInvalidArgument);
  auto impl = std::make_shared<Constraint::Impl>(tokenizer);
  impl->source.name = fmt::format("<{} over a grammar compiled by the caller>", engine->name());
  impl->engine = kind;
  impl->external_engine = true;
  impl->grammar = grammar;
  impl->grammar_handle = Grammar::wrap(Grammar::Impl::over(
      impl->source, std::shared_ptr<const GrammarModel>(grammar, &grammar->grammar())));
  impl->recognizer = std::make_shared<const glr::IncrementalRecognizer>(std::move(grammar));
  impl->statistics.lr_states = impl->grammar->table().num_states();
  const std::string name(engine->name());
  impl->engines = std::make_unique<EnginePool>(
      [name]() -> std::unique_ptr<mask::MaskEngine> {
        throw Error(fmt::format("the constraint over the caller's {} engine serves one mask call "
                                "at a time",
                                name),
                    ErrorCode::kInvalidArgument);
      },
      0);
  impl->engines->give(std::move(engine));
  return Constraint::wrap(std::move(impl));
}

namespace {

// Lends an engine the caller keeps to a constraint, which owns what it is given.
class BorrowedEngine final : public mask::MaskEngine {
 public:
  explicit BorrowedEngine(mask::MaskEngine& engine) : engine_(engine) {}
  std::string_view name() const override { return engine_.name(); }
  void fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) override {
    engine_.fill_mask(parse, words);
  }
  std::span<const std::uint32_t> mask_view(const glr::ParseView& parse,
                                           std::span<std::uint32_t> scratch) override {
    return engine_.mask_view(parse, scratch);
  }
  std::span<const mask::EngineCounter> last_step_counters() const override {
    return engine_.last_step_counters();
  }

 private:
  mask::MaskEngine& engine_;
};

}  // namespace

Constraint constraint_over_engine(const Tokenizer& tokenizer,
                                  std::shared_ptr<const glr::CompiledGrammar> grammar,
                                  mask::MaskEngine& engine, Engine kind) {
  return constraint_over_engine(tokenizer, std::move(grammar),
                                std::make_unique<BorrowedEngine>(engine), kind);
}

Tokenizer tokenizer_over(const Vocabulary& vocabulary) {
  const std::optional<TokenId> eos = vocabulary.eos();
  if (!eos)
    throw Error(fmt::format("the {} vocabulary has no EOS to end a text", vocabulary.name()),
                ErrorCode::kInvalidArgument);
  return Tokenizer::wrap(std::make_shared<const Tokenizer::Impl>(
      vocabulary, std::nullopt, std::vector<std::int32_t>{static_cast<std::int32_t>(*eos)}));
}

}  // namespace glrmask
