// A mutex that spins (then yields) instead of sleeping, for the Parser DWA builder's shared
// tables: their critical sections last a hash probe or a token-set operation, far shorter than
// the futex sleep and wake-up a contended std::mutex pays (with std::mutex, two workers spent
// about as long waiting to be woken as the build saved by running on two cores).
#pragma once

#include <atomic>
#include <thread>

namespace glrmask::wfa {

class SpinMutex {
 public:
  void lock() {
    for (int spins = 0; locked_.exchange(true, std::memory_order_acquire); ++spins) {
      // Wait on a plain load, so the line is not written while it is held elsewhere.
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins < kSpinsBeforeYield) {
          pause();
        } else {
          std::this_thread::yield();  // the holder may have been descheduled
        }
      }
    }
  }
  bool try_lock() { return !locked_.exchange(true, std::memory_order_acquire); }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  static constexpr int kSpinsBeforeYield = 1 << 10;
  std::atomic<bool> locked_{false};
};

}  // namespace glrmask::wfa
