// The number of parse trees of a forest node, exactly: a big integer (ambiguous texts easily have
// more than 2^64 trees: `e: e "+" e` over 40 numbers has Catalan(39) of them), or infinite when a
// cycle of the forest is reachable (a cyclic grammar such as `a: a | "x"`).
//
// Why a reachable cycle means infinitely many trees: every symbol node gets its first packed node
// from children that already existed, so by induction every node has a finite tree; going once
// more around a cycle then always gives a new, larger tree.
//
// Counting is one pass over the strongly connected components of the reachable part, children
// first: a node is the sum over its packed nodes of the product of their children's counts.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "glr/parse_forest.h"

namespace glrmask::glr {

struct DerivationCount {
  bool infinite = false;
  boost::multiprecision::cpp_int value;  // when finite

  static DerivationCount infinity() { return {true, 0}; }
  // The decimal number, or "infinite".
  std::string str() const;
  bool operator==(const DerivationCount&) const = default;
};

class DerivationCounter {
 public:
  // `forest` must outlive the counter. It may grow between calls: results are kept only for
  // nodes that end before complete_before() (their derivations are all known), others are
  // recomputed on every call.
  explicit DerivationCounter(const ParseForest& forest) : forest_(forest) {}

  // Nodes ending before `position` are complete (a parser past that token adds nothing to them).
  void set_complete_before(std::uint32_t position) { complete_before_ = position; }
  std::uint32_t complete_before() const { return complete_before_; }

  DerivationCount count(ForestNodeId node);

 private:
  const ParseForest& forest_;
  std::uint32_t complete_before_ = std::numeric_limits<std::uint32_t>::max();
  std::vector<char> known_;  // per node: kept_ holds its count
  std::vector<DerivationCount> kept_;
};

}  // namespace glrmask::glr
