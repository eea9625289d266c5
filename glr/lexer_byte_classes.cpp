#include "glr/lexer_byte_classes.h"

#include <algorithm>
#include <cstddef>

namespace glrmask::glr {

std::vector<std::uint8_t> byte_class_representatives(const lexer::LexerDfa& dfa) {
  const std::uint32_t num_states = dfa.num_states();
  const std::uint32_t* transitions = dfa.transitions();
  auto same_column = [&](unsigned a, unsigned b) {
    for (std::uint32_t state = 0; state < num_states; ++state) {
      const std::size_t row = std::size_t{state} * 256;
      if (transitions[row + a] != transitions[row + b]) return false;
    }
    return true;
  };
  std::vector<std::uint8_t> representatives;
  for (unsigned byte = 0; byte < 256; ++byte) {
    const bool known = std::any_of(representatives.begin(), representatives.end(),
                                   [&](std::uint8_t r) { return same_column(r, byte); });
    if (!known) representatives.push_back(static_cast<std::uint8_t>(byte));
  }
  return representatives;
}

}  // namespace glrmask::glr
