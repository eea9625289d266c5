// The wfa engine's automata (CompiledMask) compiled on a thread of their own, for the staged
// engines of one grammar (staged_engine.h). One build serves every staged engine of a grammar: a
// server that lends several engines to concurrent sequences of a new JSON Schema compiles the
// schema's automata once, and each engine switches to them when they are ready.
//
// Thread safety: every member may be called from any thread. start() begins the build once,
// whoever calls it first; ready() is one atomic load, so an engine may ask it at every step.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "glr/compiled_grammar.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/lazy/vocabulary_tables.h"
#include "mask/parser_dwa/parser_dwa_builder.h"

namespace glrmask::mask {

class BackgroundMaskBuild {
 public:
  // `tables` must outlive the build. Nothing runs before start().
  BackgroundMaskBuild(std::shared_ptr<const glr::CompiledGrammar> grammar,
                      const VocabularyTables& tables, ParserDwaOptions options = {});
  // Waits for a running build (its result is dropped).
  ~BackgroundMaskBuild();
  BackgroundMaskBuild(const BackgroundMaskBuild&) = delete;
  BackgroundMaskBuild& operator=(const BackgroundMaskBuild&) = delete;

  // Starts the build on its own thread; later calls do nothing.
  void start();
  // Whether the automata are built (false also after a failed build).
  bool ready() const { return ready_.load(std::memory_order_acquire); }
  // The automata once built, else null.
  std::shared_ptr<const CompiledMask> compiled() const { return ready() ? compiled_ : nullptr; }
  // Starts the build if need be and blocks until it is over; then returns the automata, or
  // rethrows the build's error as it was thrown (a glrmask::Error keeps its code: kUnsupported
  // for a grammar the construction refuses, kLimit for a budget of the ParserDwaOptions).
  std::shared_ptr<const CompiledMask> wait();
  // Seconds the build took (0 before it is over).
  double seconds() const;

 private:
  void run();

  std::shared_ptr<const glr::CompiledGrammar> grammar_;
  const VocabularyTables& tables_;
  ParserDwaOptions options_;
  std::once_flag started_;
  std::thread thread_;
  mutable std::mutex mutex_;  // guards what follows, written once when the build ends
  std::condition_variable finished_;
  bool over_ = false;
  std::shared_ptr<const CompiledMask> compiled_;
  std::exception_ptr error_;
  double seconds_ = 0;
  // Set once the build is over without error; compiled_ never changes after that, so a reader
  // that sees it set reads compiled_ without the lock.
  std::atomic<bool> ready_{false};
};

}  // namespace glrmask::mask
