// Latency percentiles for the per-step timings the decoding commands print (mask, commit).
//
// Percentiles use the nearest-rank definition: p-th percentile = the smallest sample such that at
// least p% of the samples are <= it (rank ceil(p/100 * n), 1-based). Unlike interpolation it
// always names a latency that really occurred, and p99.9 of fewer than 1000 samples is simply
// the maximum rather than an extrapolation.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace glrmask::app {

struct LatencySummary {
  std::size_t count = 0;
  // Microseconds; all zero when count == 0.
  double mean_us = 0;
  double p50_us = 0;
  double p90_us = 0;
  double p99_us = 0;
  double p999_us = 0;
  double max_us = 0;
  double total_us = 0;
};

// Sorts a copy of `samples`; O(n log n).
LatencySummary summarize_latencies(std::vector<std::chrono::nanoseconds> samples);

// "n=120 mean=.. p50=.. p90=.. p99=.. p99.9=.. max=.. (us)" on one line.
std::string format_latency_line(const LatencySummary& summary);
// {"count":120,"mean_us":..,"p50_us":..,...}: a JSON object.
std::string format_latency_json(const LatencySummary& summary);

}  // namespace glrmask::app
