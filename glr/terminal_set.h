// A set of terminals (lookaheads, FIRST sets). Grammars have tens to a few hundred terminals, so a
// plain bitset over dense terminal ids is both the smallest and the fastest representation.
#pragma once

#include <boost/dynamic_bitset.hpp>
#include <cstdint>

namespace glrmask::glr {

using TerminalSet = boost::dynamic_bitset<std::uint64_t>;

}  // namespace glrmask::glr
