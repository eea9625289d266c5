#include "api/src/engine_pool.h"

#include <chrono>

namespace glrmask {

EnginePool::EnginePool(Factory factory, std::size_t max_engines)
    : factory_(std::move(factory)), max_engines_(max_engines) {}

EnginePool::Lease& EnginePool::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    release();
    pool_ = other.pool_;
    engine_ = std::move(other.engine_);
    other.pool_ = nullptr;
  }
  return *this;
}

void EnginePool::Lease::release() {
  if (pool_ != nullptr && engine_ != nullptr) pool_->give_back(std::move(engine_));
  pool_ = nullptr;
  engine_.reset();
}

EnginePool::~EnginePool() {
  delete hot_.exchange(nullptr);
}

void EnginePool::give_back(std::unique_ptr<mask::MaskEngine> engine) {
  mask::MaskEngine* expected = nullptr;
  if (hot_.compare_exchange_strong(expected, engine.get(), std::memory_order_acq_rel)) {
    static_cast<void>(engine.release());  // hot_ owns it now
    // A borrower that found no engine may be asleep on the free list; it must see this one.
    if (waiting_.load(std::memory_order_acquire) != 0) returned_.notify_one();
    return;
  }
  {
    const std::lock_guard lock(mutex_);
    idle_.push_back(std::move(engine));
  }
  if (waiting_.load(std::memory_order_acquire) != 0) returned_.notify_one();
}

EnginePool::Lease EnginePool::borrow() {
  if (mask::MaskEngine* engine = hot_.exchange(nullptr, std::memory_order_acq_rel))
    return Lease(this, std::unique_ptr<mask::MaskEngine>(engine));
  std::unique_lock lock(mutex_);
  while (idle_.empty() && max_engines_ != 0 && engines_ >= max_engines_) {
    if (mask::MaskEngine* engine = hot_.exchange(nullptr, std::memory_order_acq_rel))
      return Lease(this, std::unique_ptr<mask::MaskEngine>(engine));
    // Timed: a return into the hot slot does not take the lock, so its notification can come
    // between the check above and this wait; the waiter then looks again after a millisecond.
    waiting_.fetch_add(1, std::memory_order_acq_rel);
    returned_.wait_for(lock, std::chrono::milliseconds(1));
    waiting_.fetch_sub(1, std::memory_order_acq_rel);
  }
  if (!idle_.empty()) {
    std::unique_ptr<mask::MaskEngine> engine = std::move(idle_.back());
    idle_.pop_back();
    return Lease(this, std::move(engine));
  }
  ++engines_;
  lock.unlock();
  try {
    return Lease(this, factory_());
  } catch (...) {
    const std::lock_guard relock(mutex_);
    --engines_;
    throw;
  }
}

void EnginePool::give(std::unique_ptr<mask::MaskEngine> engine) {
  {
    const std::lock_guard lock(mutex_);
    ++engines_;
  }
  give_back(std::move(engine));
}

}  // namespace glrmask
