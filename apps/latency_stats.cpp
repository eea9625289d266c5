#include "apps/latency_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace glrmask::app {
namespace {

double to_microseconds(std::chrono::nanoseconds d) {
  return static_cast<double>(d.count()) / 1000.0;
}

// Nearest rank: the sample at 1-based rank ceil(fraction * n), at least rank 1.
double nearest_rank(const std::vector<std::chrono::nanoseconds>& sorted, double fraction) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(fraction * n)));
  return to_microseconds(sorted[std::min(rank, sorted.size()) - 1]);
}

}  // namespace

LatencySummary summarize_latencies(std::vector<std::chrono::nanoseconds> samples) {
  LatencySummary summary;
  summary.count = samples.size();
  if (samples.empty()) return summary;
  std::sort(samples.begin(), samples.end());
  std::chrono::nanoseconds total{0};
  for (const auto sample : samples) total += sample;
  summary.total_us = to_microseconds(total);
  summary.mean_us = summary.total_us / static_cast<double>(samples.size());
  summary.p50_us = nearest_rank(samples, 0.50);
  summary.p90_us = nearest_rank(samples, 0.90);
  summary.p99_us = nearest_rank(samples, 0.99);
  summary.p999_us = nearest_rank(samples, 0.999);
  summary.max_us = to_microseconds(samples.back());
  return summary;
}

std::string format_latency_line(const LatencySummary& s) {
  return fmt::format(
      "n={} mean={:.1f} p50={:.1f} p90={:.1f} p99={:.1f} p99.9={:.1f} max={:.1f} (us)", s.count,
      s.mean_us, s.p50_us, s.p90_us, s.p99_us, s.p999_us, s.max_us);
}

std::string format_latency_json(const LatencySummary& s) {
  return fmt::format(
      "{{\"count\":{},\"mean_us\":{:.3f},\"p50_us\":{:.3f},\"p90_us\":{:.3f},\"p99_us\":{:.3f},"
      "\"p999_us\":{:.3f},\"max_us\":{:.3f},\"total_us\":{:.3f}}}",
      s.count, s.mean_us, s.p50_us, s.p90_us, s.p99_us, s.p999_us, s.max_us, s.total_us);
}

}  // namespace glrmask::app
