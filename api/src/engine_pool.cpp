#include "api/src/engine_pool.h"

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
  if (pool_ != nullptr && engine_ != nullptr) {
    {
      const std::lock_guard lock(pool_->mutex_);
      pool_->idle_.push_back(std::move(engine_));
    }
    pool_->returned_.notify_one();
  }
  pool_ = nullptr;
  engine_.reset();
}

EnginePool::Lease EnginePool::borrow() {
  std::unique_lock lock(mutex_);
  if (idle_.empty() && max_engines_ != 0 && engines_ >= max_engines_)
    returned_.wait(lock, [&] { return !idle_.empty(); });
  if (!idle_.empty()) {
    std::unique_ptr<wfa::MaskEngine> engine = std::move(idle_.back());
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

void EnginePool::give(std::unique_ptr<wfa::MaskEngine> engine) {
  {
    const std::lock_guard lock(mutex_);
    ++engines_;
    idle_.push_back(std::move(engine));
  }
  returned_.notify_one();
}

}  // namespace glrmask
