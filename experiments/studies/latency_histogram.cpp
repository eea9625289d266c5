#include "experiments/studies/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace glrmask::experiments {
namespace {

constexpr double kBucketsPerOctave = 4;
constexpr double kSmallestMicros = 0.125;

int bucket_of(double micros) {
  if (micros <= kSmallestMicros) return 0;
  return static_cast<int>(std::floor(std::log2(micros / kSmallestMicros) * kBucketsPerOctave));
}

double bucket_start(int bucket) {
  return kSmallestMicros * std::exp2(bucket / kBucketsPerOctave);
}

}  // namespace

ResultTable latency_histogram(const std::vector<LatencySeries>& series) {
  std::vector<std::string> columns = {"latency_us"};
  int last = 0;
  for (const LatencySeries& s : series) {
    columns.push_back(s.name);
    for (const double micros : s.micros) last = std::max(last, bucket_of(micros));
  }
  std::vector<std::vector<double>> counts(series.size(), std::vector<double>(last + 1, 0.0));
  for (std::size_t i = 0; i < series.size(); ++i)
    for (const double micros : series[i].micros) counts[i][bucket_of(micros)] += 1;
  ResultTable table(std::move(columns));
  for (int bucket = 0; bucket <= last; ++bucket) {
    std::vector<std::string> row = {format_fixed(bucket_start(bucket), 3)};
    for (std::size_t i = 0; i < series.size(); ++i) {
      const double total = static_cast<double>(series[i].micros.size());
      row.push_back(format_fixed(total == 0 ? 0.0 : counts[i][bucket] / total, 6));
    }
    table.add_row(std::move(row));
  }
  return table;
}

double percentile(std::vector<double> samples, double p) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const auto rank =
      static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(samples.size())));
  return samples[std::clamp<std::size_t>(rank, 1, samples.size()) - 1];
}

}  // namespace glrmask::experiments
