#include "mask/lazy/background_mask_build.h"

#include <chrono>
#include <utility>

namespace glrmask::mask {

BackgroundMaskBuild::BackgroundMaskBuild(std::shared_ptr<const glr::CompiledGrammar> grammar,
                                         const VocabularyTables& tables, ParserDwaOptions options)
    : grammar_(std::move(grammar)), tables_(tables), options_(std::move(options)) {}

BackgroundMaskBuild::~BackgroundMaskBuild() {
  if (thread_.joinable()) thread_.join();
}

void BackgroundMaskBuild::start() {
  std::call_once(started_, [this] { thread_ = std::thread([this] { run(); }); });
}

void BackgroundMaskBuild::run() {
  const auto started = std::chrono::steady_clock::now();
  std::shared_ptr<const CompiledMask> compiled;
  std::exception_ptr error;
  try {
    compiled = CompiledMask::compile(grammar_, tables_.vocabulary, tables_.trie, options_);
  } catch (...) {
    error = std::current_exception();
  }
  {
    const std::lock_guard lock(mutex_);
    compiled_ = std::move(compiled);
    error_ = error;
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    over_ = true;
    // Published last: an engine that sees the pointer reads automata that are complete.
    ready_.store(compiled_ != nullptr, std::memory_order_release);
  }
  finished_.notify_all();
}

std::shared_ptr<const CompiledMask> BackgroundMaskBuild::wait() {
  start();
  std::unique_lock lock(mutex_);
  finished_.wait(lock, [this] { return over_; });
  if (error_) std::rethrow_exception(error_);
  return compiled_;
}

double BackgroundMaskBuild::seconds() const {
  const std::lock_guard lock(mutex_);
  return seconds_;
}

}  // namespace glrmask::mask
