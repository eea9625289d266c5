// A dense integer id that does not convert to or from any other: StrongId<struct FooTag> and
// StrongId<struct BarTag> are distinct types, so passing one numbering where another is expected
// fails to compile. Construction is explicit and value() reads the integer, which is where an id
// becomes an array index or crosses into another numbering (say so there).
//
// Used where two numberings of the same kind of thing meet and an off-by-one or a swapped argument
// would be silent: the grammar model's symbols against the LR grammar's (glr/lr_grammar.h), the
// Parser DWA's states against the LR automaton's (mask/parser_dwa/parser_dwa.h). Plain integers
// stay where only one numbering is in sight.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <ranges>

namespace glrmask {

template <class Tag, class Rep = std::uint32_t>
class StrongId {
 public:
  using rep_type = Rep;

  constexpr StrongId() = default;
  constexpr explicit StrongId(Rep value) : value_(value) {}

  constexpr Rep value() const { return value_; }

  friend constexpr bool operator==(StrongId, StrongId) = default;
  friend constexpr auto operator<=>(StrongId, StrongId) = default;
  friend std::ostream& operator<<(std::ostream& out, StrongId id) { return out << id.value_; }
  // Found by Boost's containers through argument-dependent lookup.
  friend std::size_t hash_value(StrongId id) { return std::hash<Rep>{}(id.value_); }

 private:
  Rep value_{};
};

// The ids 0 .. count-1 of a dense numbering, for range-for loops.
template <class Id>
auto id_range(std::size_t count) {
  using Rep = typename Id::rep_type;
  return std::views::iota(Rep{0}, static_cast<Rep>(count)) |
         std::views::transform([](Rep value) { return Id{value}; });
}

}  // namespace glrmask

template <class Tag, class Rep>
struct std::hash<glrmask::StrongId<Tag, Rep>> {
  std::size_t operator()(glrmask::StrongId<Tag, Rep> id) const noexcept {
    return std::hash<Rep>{}(id.value());
  }
};
