// Log-spaced latency histograms (4 buckets per octave) written as one CSV with a column per
// series, the layout gnuplot's `plot for [i=2:N] ... columnhead(i)` reads.
#pragma once

#include <string>
#include <vector>

#include "experiments/support/result_table.h"

namespace glrmask::experiments {

struct LatencySeries {
  std::string name;
  std::vector<double> micros;
};

// Rows: bucket lower bound (µs), then for each series the fraction of its samples in the bucket.
ResultTable latency_histogram(const std::vector<LatencySeries>& series);

// Nearest-rank percentile of unsorted samples (apps/latency_stats.h's definition).
double percentile(std::vector<double> samples, double p);

}  // namespace glrmask::experiments
