// The small id of an interned token set (see lib/token_set/token_set.h). Automaton weights are
// these ids, so the type is a 4-byte value: hashable, ordered, and distinct from other integers at
// compile time. Id 0 is always the empty set and id 1 the full set of the pool that made it.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace glrmask {

class TokenSetId {
 public:
  constexpr TokenSetId() = default;  // the empty set
  constexpr explicit TokenSetId(std::uint32_t value) : value_(value) {}

  constexpr std::uint32_t value() const { return value_; }
  constexpr bool is_empty() const { return value_ == 0; }

  friend constexpr bool operator==(TokenSetId, TokenSetId) = default;
  friend constexpr auto operator<=>(TokenSetId, TokenSetId) = default;
  // Found by Boost's containers through argument-dependent lookup.
  friend std::size_t hash_value(TokenSetId id) { return std::hash<std::uint32_t>{}(id.value_); }

 private:
  std::uint32_t value_ = 0;
};

}  // namespace glrmask

template <>
struct std::hash<glrmask::TokenSetId> {
  std::size_t operator()(glrmask::TokenSetId id) const noexcept {
    return std::hash<std::uint32_t>{}(id.value());
  }
};
