// The GSS's block serials: what lets a cache keyed by a node's address (the wfa's stack
// summaries) tell a new node at a freed node's address apart.
#include "glr/gss.h"

#include <boost/intrusive_ptr.hpp>
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <thread>
#include <vector>

using namespace glrmask;

TEST_CASE("gss: block serials differ across threads and after blocks are freed") {
  // Each thread makes and frees more blocks than one chunk of serials holds (2^16), so the
  // freed blocks' memory comes back and every thread takes a second chunk.
  constexpr int kThreads = 3;
  constexpr int kBlocks = 70000;
  std::vector<std::vector<std::uint64_t>> serials(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&serials, t] {
      for (int i = 0; i < kBlocks; ++i) {
        const boost::intrusive_ptr<glr::GssBlock> block(new glr::GssBlock);
        serials[t].push_back(block->serial());
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::set<std::uint64_t> distinct;
  for (const auto& of_thread : serials) distinct.insert(of_thread.begin(), of_thread.end());
  CHECK(distinct.size() == static_cast<std::size_t>(kThreads) * kBlocks);
}
