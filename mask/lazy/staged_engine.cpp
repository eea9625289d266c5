#include "mask/lazy/staged_engine.h"

#include <utility>

namespace glrmask::mask {

StagedEngine::StagedEngine(std::shared_ptr<const glr::CompiledGrammar> grammar,
                           const VocabularyTables& tables, const StagedOptions& options)
    : tables_(tables), lazy_(grammar, tables.vocabulary, tables.trie, &tables.plain) {
  if (!options.build_wfa) return;
  build_ = std::make_shared<BackgroundMaskBuild>(std::move(grammar), tables, options.parser_dwa);
  if (!options.build_after_first_mask) build_->start();
}

StagedEngine::StagedEngine(std::shared_ptr<const glr::CompiledGrammar> grammar,
                           const VocabularyTables& tables,
                           std::shared_ptr<BackgroundMaskBuild> build)
    : tables_(tables),
      lazy_(std::move(grammar), tables.vocabulary, tables.trie, &tables.plain),
      build_(std::move(build)) {}

// The build's destructor (when this engine holds its last reference) waits for its thread.
StagedEngine::~StagedEngine() = default;

void StagedEngine::start_build() {
  if (build_ != nullptr) build_->start();
}

void StagedEngine::wait_for_wfa() {
  if (build_ != nullptr) build_->wait();
}

MaskEngine& StagedEngine::current() {
  if (wfa_ == nullptr && build_ != nullptr && build_->ready())
    wfa_ = std::make_unique<WfaEngine>(build_->compiled(), tables_.vocabulary);
  if (wfa_ != nullptr) return *wfa_;
  return lazy_;
}

void StagedEngine::fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) {
  current().fill_mask(parse, words);
  start_build();
}

std::span<const std::uint32_t> StagedEngine::mask_view(const glr::ParseView& parse,
                                                       std::span<std::uint32_t> scratch) {
  const std::span<const std::uint32_t> mask = current().mask_view(parse, scratch);
  start_build();
  return mask;
}

std::span<const EngineCounter> StagedEngine::last_step_counters() const {
  if (wfa_ != nullptr) return wfa_->last_step_counters();
  return lazy_.last_step_counters();
}

}  // namespace glrmask::mask
