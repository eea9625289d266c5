// One parser action packed into 32 bits: the hot tables stay small and an action list is a plain
// array of integers.
#pragma once

#include <cstdint>

#include "glr/ids.h"

namespace glrmask::glr {

enum class ActionKind : std::uint8_t {
  kShift = 0,   // push target()
  kReduce = 1,  // pop the rule's right-hand side, then goto on its left-hand side
  kAccept = 2,  // $END after a complete sentence
};

class Action {
 public:
  static constexpr Action shift(StateId target) { return Action(target << 2 | 0u); }
  static constexpr Action reduce(RuleId rule) { return Action(rule << 2 | 1u); }
  static constexpr Action accept() { return Action(2u); }

  constexpr ActionKind kind() const { return static_cast<ActionKind>(bits_ & 3u); }
  constexpr bool is_shift() const { return kind() == ActionKind::kShift; }
  constexpr bool is_reduce() const { return kind() == ActionKind::kReduce; }
  constexpr bool is_accept() const { return kind() == ActionKind::kAccept; }
  constexpr StateId target() const { return bits_ >> 2; }  // for kShift
  constexpr RuleId rule() const { return bits_ >> 2; }     // for kReduce
  constexpr std::uint32_t bits() const { return bits_; }

  constexpr bool operator==(const Action&) const = default;

 private:
  explicit constexpr Action(std::uint32_t bits) : bits_(bits) {}
  std::uint32_t bits_;
};

static_assert(sizeof(Action) == sizeof(std::uint32_t));

}  // namespace glrmask::glr
