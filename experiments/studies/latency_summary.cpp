#include "experiments/studies/latency_summary.h"

#include <algorithm>
#include <numeric>

#include "experiments/studies/latency_histogram.h"
#include "experiments/support/result_table.h"

namespace glrmask::experiments {

const std::vector<std::string>& latency_column_names() {
  static const std::vector<std::string> names = {"mean", "p50", "p90", "p99", "p99.9", "max"};
  return names;
}

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

std::vector<std::string> latency_cells(const std::vector<double>& micros, int decimals) {
  if (micros.empty()) return std::vector<std::string>(latency_column_names().size(), "");
  std::vector<double> sorted = micros;
  std::sort(sorted.begin(), sorted.end());
  return {format_fixed(mean(micros), decimals),
          format_fixed(percentile(sorted, 50), decimals),
          format_fixed(percentile(sorted, 90), decimals),
          format_fixed(percentile(sorted, 99), decimals),
          format_fixed(percentile(sorted, 99.9), decimals),
          format_fixed(sorted.back(), decimals)};
}

}  // namespace glrmask::experiments
