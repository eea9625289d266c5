// 64-bit finalizers ("mixers") shared by the project's hashes: each output bit depends on every
// input bit, so keys that differ in one packed field or one low bit still spread over a table's
// low bits. Not cryptographic; inputs an attacker controls could still be made to collide.
#pragma once

#include <cstdint>

namespace glrmask {

// The shape both finalizers share: three xor-shifts with two odd multipliers between them.
constexpr std::uint64_t xorshift_multiply(std::uint64_t x, int shift1, std::uint64_t multiplier1,
                                          int shift2, std::uint64_t multiplier2, int shift3) {
  x ^= x >> shift1;
  x *= multiplier1;
  x ^= x >> shift2;
  x *= multiplier2;
  x ^= x >> shift3;
  return x;
}

// MurmurHash3's fmix64.
constexpr std::uint64_t fmix64(std::uint64_t x) {
  return xorshift_multiply(x, 33, 0xff51afd7ed558ccdULL, 33, 0xc4ceb53fe1a85ec9ULL, 33);
}

// SplitMix64's output function (Steele, Lea, Flood 2014), without the state increment.
constexpr std::uint64_t splitmix64_mix(std::uint64_t x) {
  return xorshift_multiply(x, 30, 0xbf58476d1ce4e5b9ULL, 27, 0x94d049bb133111ebULL, 31);
}

}  // namespace glrmask
