#include "wfa/staged_engine.h"

#include <chrono>

#include "lib/core/error.h"

namespace glrmask::wfa {

StagedEngine::StagedEngine(std::shared_ptr<const glr::CompiledGrammar> grammar,
                           const VocabularyTables& tables, const StagedOptions& options)
    : tables_(tables),
      grammar_(grammar),
      options_(options),
      lazy_(std::move(grammar), tables.vocabulary, tables.trie, &tables.plain) {
  if (options_.build_wfa && !options_.build_after_first_mask) start_build();
}

void StagedEngine::start_build() {
  if (builder_.joinable() || !options_.build_wfa) return;
  builder_ = std::thread([this] {
    const auto started = std::chrono::steady_clock::now();
    try {
      compiled_ =
          CompiledMask::compile(grammar_, tables_.vocabulary, tables_.trie, options_.parser_dwa);
      wfa_ = std::make_unique<WfaEngine>(compiled_, tables_.vocabulary);
      wfa_seconds_ =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      wfa_ready_.store(true, std::memory_order_release);
    } catch (...) {
      wfa_error_ = std::current_exception();
    }
  });
}

StagedEngine::~StagedEngine() {
  if (builder_.joinable()) builder_.join();
}

void StagedEngine::wait_for_wfa() {
  start_build();
  if (builder_.joinable()) builder_.join();
  if (wfa_error_) std::rethrow_exception(wfa_error_);
}

MaskEngine& StagedEngine::current() {
  if (wfa_ready_.load(std::memory_order_acquire)) return *wfa_;
  return lazy_;
}

void StagedEngine::fill_mask(const glr::Session& session, std::span<std::uint32_t> words) {
  current().fill_mask(session, words);
  start_build();
}

std::span<const std::uint32_t> StagedEngine::mask_view(const glr::Session& session,
                                                       std::span<std::uint32_t> scratch) {
  const std::span<const std::uint32_t> mask = current().mask_view(session, scratch);
  start_build();
  return mask;
}

std::span<const EngineCounter> StagedEngine::last_step_counters() const {
  if (wfa_ready_.load(std::memory_order_acquire)) return wfa_->last_step_counters();
  return lazy_.last_step_counters();
}

}  // namespace glrmask::wfa
