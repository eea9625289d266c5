// 64-bit finalizers ("mixers") shared by the project's hashes: each output bit depends on every
// input bit, so keys that differ in one packed field or one low bit still spread over a table's
// low bits. Not cryptographic; inputs an attacker controls could still be made to collide.
#pragma once

#include <cstdint>

namespace glrmask {

// MurmurHash3's fmix64.
constexpr std::uint64_t fmix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb53fe1a85ec9ULL;
  x ^= x >> 33;
  return x;
}

// SplitMix64's output function (Steele, Lea, Flood 2014), without the state increment.
constexpr std::uint64_t splitmix64_mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace glrmask
