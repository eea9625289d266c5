// The latency columns every timing study reports, from per-step samples in microseconds.
#pragma once

#include <string>
#include <vector>

namespace glrmask::experiments {

// "mean", "p50", "p90", "p99", "p99.9", "max".
const std::vector<std::string>& latency_column_names();
// The cells for those columns, in µs with `decimals` decimals.
std::vector<std::string> latency_cells(const std::vector<double>& micros, int decimals = 1);
double mean(const std::vector<double>& values);

}  // namespace glrmask::experiments
