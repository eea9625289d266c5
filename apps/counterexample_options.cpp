#include "apps/counterexample_options.h"

#include <fmt/format.h>

#include <charconv>

#include "lib/core/error.h"

namespace glrmask::app {
namespace {

// Integers and the seconds of --time-limit alike: the whole text a number above zero.
template <typename T>
T positive_number_option(const Args& args, const std::string& name, T fallback) {
  const auto text = args.value(name);
  if (!text) return fallback;
  T value{};
  const char* end = text->data() + text->size();
  auto [stop, error] = std::from_chars(text->data(), end, value);
  if (error != std::errc() || stop != end || !(value > T{}))
    throw Error(fmt::format("option --{}: expected a positive number, got '{}'", name, *text),
                ErrorCode::kInvalidArgument);
  return value;
}

}  // namespace

std::set<std::string> counterexample_bound_options() {
  return {kCounterexampleBoundOptions.begin(), kCounterexampleBoundOptions.end()};
}

glr::CounterexampleOptions counterexample_bounds(const Args& args) {
  glr::CounterexampleOptions bounds;
  bounds.max_length = positive_number_option(args, "max-length", bounds.max_length);
  bounds.max_lookahead = positive_number_option(args, "max-lookahead", bounds.max_lookahead);
  bounds.max_configurations =
      positive_number_option(args, "max-configurations", bounds.max_configurations);
  bounds.max_seconds = positive_number_option(args, "time-limit", bounds.max_seconds);
  return bounds;
}

}  // namespace glrmask::app
