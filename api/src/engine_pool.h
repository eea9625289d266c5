// Mask engines lent to matchers for one call at a time.
//
// A wfa engine carries per-walk scratch and a cache of recent dense masks (256 masks: 4 MiB with a
// 128k vocabulary), so one per matcher would cost a server with hundreds of sequences gigabytes.
// The pool keeps engines apart from matchers instead: a call borrows one, computes the mask and
// gives it back, so there are only as many engines as calls running at once, and a recurring mask
// cached for one sequence serves the others.
//
// A get_mask step costs a few hundred nanoseconds when its mask is cached, so borrowing must cost
// a few: the last engine given back waits in a one-slot "hot" place taken and refilled with a
// single atomic exchange each; only a second concurrent borrower goes to the locked free list.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "mask/mask_engine.h"

namespace glrmask {

class EnginePool {
 public:
  using Factory = std::function<std::unique_ptr<mask::MaskEngine>()>;

  // At most `max_engines` exist at once (0: no limit); a borrower beyond waits for a return.
  EnginePool(Factory factory, std::size_t max_engines);
  EnginePool(const EnginePool&) = delete;
  EnginePool& operator=(const EnginePool&) = delete;

  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& other) noexcept : pool_(other.pool_), engine_(std::move(other.engine_)) {
      other.pool_ = nullptr;
    }
    Lease& operator=(Lease&& other) noexcept;
    ~Lease() { release(); }

    explicit operator bool() const { return engine_ != nullptr; }
    mask::MaskEngine& operator*() const { return *engine_; }
    mask::MaskEngine* operator->() const { return engine_.get(); }
    // Gives the engine back now (the destructor does it otherwise).
    void release();

   private:
    friend class EnginePool;
    Lease(EnginePool* pool, std::unique_ptr<mask::MaskEngine> engine)
        : pool_(pool), engine_(std::move(engine)) {}
    EnginePool* pool_ = nullptr;
    std::unique_ptr<mask::MaskEngine> engine_;
  };

  // An idle engine, or a new one. The pool must outlive the lease.
  Lease borrow();
  // Puts a ready engine in (built while compiling, so its errors surface there).
  void give(std::unique_ptr<mask::MaskEngine> engine);

 private:
  Factory factory_;
  std::size_t max_engines_;
  std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<std::unique_ptr<mask::MaskEngine>> idle_;
  std::size_t engines_ = 0;  // idle (in `idle_` or `hot_`) or lent
  // Borrowers blocked by max_engines_ (read without the lock; a missed wake-up costs a waiter
  // one short timed wait, see borrow()).
  std::atomic<std::size_t> waiting_{0};
  std::atomic<mask::MaskEngine*> hot_{nullptr};  // an idle engine, owned by the pool

  // Gives `engine` back: into the hot slot when it is free, else to the free list.
  void give_back(std::unique_ptr<mask::MaskEngine> engine);

 public:
  ~EnginePool();
};

}  // namespace glrmask
