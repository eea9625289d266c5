#include "lexer/runtime/byte_classes.h"

#include <algorithm>
#include <cstddef>

namespace glrmask::lexer {

std::vector<std::uint8_t> byte_class_representatives(const LexerDfa& dfa,
                                                     std::span<const std::uint8_t> candidates) {
  // Hash each byte's column of the transition table, then confirm equal hashes column by column.
  const std::uint32_t num_states = dfa.num_states();
  // Only the candidates' columns are read: every other byte's column is that of a smaller
  // candidate, so it is never a representative.
  std::vector<std::uint64_t> hashes(256, 0);
  // A veto byte (LexerDfa::veto_byte) acts differently from bytes that lead to the same states.
  const auto vetoes = [&](std::uint32_t state, unsigned byte) {
    return dfa.is_tentative(state) && dfa.veto_byte(state) == byte;
  };
  for (std::uint32_t state = 0; state < num_states; ++state) {
    for (const unsigned byte : candidates)
      hashes[byte] = (hashes[byte] ^ dfa.next(state, static_cast<std::uint8_t>(byte)) ^
                      (vetoes(state, byte) ? 0x9e3779b97f4a7c15ull : 0)) *
                         0x100000001B3ull +
                     state;
  }
  auto same_column = [&](unsigned a, unsigned b) {
    for (std::uint32_t state = 0; state < num_states; ++state) {
      if (dfa.next(state, static_cast<std::uint8_t>(a)) !=
              dfa.next(state, static_cast<std::uint8_t>(b)) ||
          vetoes(state, a) != vetoes(state, b))
        return false;
    }
    return true;
  };
  std::vector<std::uint8_t> representatives;
  for (const unsigned byte : candidates) {
    const bool known = std::any_of(representatives.begin(), representatives.end(), [&](auto r) {
      return hashes[r] == hashes[byte] && same_column(r, byte);
    });
    if (!known) representatives.push_back(static_cast<std::uint8_t>(byte));
  }
  return representatives;
}

}  // namespace glrmask::lexer
