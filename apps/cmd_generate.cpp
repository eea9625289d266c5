// `glrmask generate`: random walks through the language. At each step a token is drawn uniformly
// from the engine's mask and committed, until EOS is drawn or the token limit is reached. Every
// text that ends by EOS must be a sentence of the grammar, which makes the walks a test of the
// mask engine against any independent parser (tests/apps/generate_reference_test.cpp uses Lark).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/constraint_options.h"
#include "apps/decoding_inputs.h"
#include "apps/grammar_options.h"
#include "apps/input_file.h"
#include "apps/json_text.h"
#include "apps/latency_stats.h"
#include "apps/limit_options.h"
#include "glrmask/glrmask.hpp"
#include "lib/core/error.h"

namespace glrmask::app {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kGenerateUsage =
    "glrmask generate GRAMMAR --tokenizer NAME|PATH|BASE+DONOR@SIZE --seed S --max-tokens N "
    "[--count K] [--eos-bias P] [--min-tokens M] [--close-bias P] [--max-token-bytes B] "
    "[--prefix FILE] [--engine ENGINE] [--json-lines] [--start S] "
    "[--policy glr|lark] [--skippable T,...] [--postlex python] [--max-... N: budgets, "
    "docs/limits.md]";

enum class WalkEnd { kEos, kLimit, kDeadEnd };

std::string_view end_name(WalkEnd end) {
  switch (end) {
    case WalkEnd::kEos:
      return "eos";
    case WalkEnd::kLimit:
      return "limit";
    default:
      return "dead-end";
  }
}

struct Walk {
  std::string text;               // the prefix, then the drawn tokens
  std::size_t prefix_tokens = 0;  // taken from --prefix, before the first draw
  std::size_t prefix_bytes = 0;
  std::size_t tokens = 0;  // drawn and committed tokens, EOS not counted
  WalkEnd end = WalkEnd::kLimit;
};

struct WalkSettings {
  std::uint64_t max_tokens = 0;
  // Probability of taking EOS whenever the mask allows it; negative: EOS is one token among the
  // others, drawn with the same uniform probability.
  double eos_bias = -1;
  // Draw only among allowed tokens of at most this many bytes (EOS aside) when there are any; 0:
  // no limit. Short tokens end lexemes far more often than long ones (an identifier absorbs most
  // long tokens), so walks reach EOS in fewer steps; the walk still follows the engine's mask.
  std::size_t max_token_bytes = 0;
  // EOS is not drawn before this many tokens have been committed, unless it is the only choice.
  std::uint64_t min_tokens = 0;
  // Probability of drawing a closing token (see closing_kind) when the mask allows any; 0: never.
  // Nested languages (Java, Go) open far more than uniform draws ever close, so without it almost
  // no walk returns to a point where EOS is allowed.
  double close_bias = 0;
};

// What a token closes, by its first closing unit: a bracket, brace or angle bracket, `;` or `,`
// (statements, list items), a quote or backquote (strings, characters), `*/` (block comments) or a
// newline (line comments, and statements in Go). A closing token holds nothing but closing units
// and blanks (space, tab, carriage return); 0 for any other token.
char closing_kind(std::string_view bytes) {
  constexpr std::string_view kClosers = ")]}>;,\"'`\n";
  char kind = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (c == ' ' || c == '\t' || c == '\r') continue;
    char unit = c;
    if (c == '*' && i + 1 < bytes.size() && bytes[i + 1] == '/') {
      ++i;  // `*/` as one unit; a lone `*` or `/` would open a comment or an operator
    } else if (kClosers.find(c) == std::string_view::npos) {
      return 0;
    }
    if (kind == 0) kind = unit;
  }
  return kind;
}

// The ids set in `words`, ascending, leaving out `skip`.
void collect_ids(std::span<const std::uint32_t> words, std::int32_t skip,
                 std::vector<std::int32_t>& out) {
  out.clear();
  for (std::size_t word = 0; word < words.size(); ++word) {
    for (std::uint32_t bits = words[word]; bits != 0; bits &= bits - 1) {
      const auto id =
          static_cast<std::int32_t>(word * 32 + static_cast<std::size_t>(__builtin_ctz(bits)));
      if (id != skip) out.push_back(id);
    }
  }
}

// Keeps the ids of at most `max_bytes` bytes, unless that would leave none.
void keep_short_tokens(const Tokenizer& tokenizer, std::size_t max_bytes,
                       std::vector<std::int32_t>& ids) {
  const auto is_long = [&](std::int32_t id) {
    return tokenizer.token_bytes(id).size() > max_bytes;
  };
  if (std::all_of(ids.begin(), ids.end(), is_long)) return;
  ids.erase(std::remove_if(ids.begin(), ids.end(), is_long), ids.end());
}

class Walker {
 public:
  // `prefix`: the tokens of a text the walks start inside, each at a cut of its own (empty: every
  // walk starts at the beginning of the language).
  Walker(const Constraint& constraint, WalkSettings settings, std::vector<std::int32_t> prefix)
      : constraint_(constraint),
        tokenizer_(constraint.tokenizer()),
        eos_(tokenizer_.stop_ids().front()),
        settings_(settings),
        prefix_(std::move(prefix)),
        mask_(tokenizer_.bitmask_words()) {
    if (settings_.close_bias > 0) {
      closing_.resize(tokenizer_.vocab_size());
      for (std::size_t id = 0; id < tokenizer_.vocab_size(); ++id) {
        const auto token = static_cast<std::int32_t>(id);
        closing_[id] = token == eos_ ? 0 : closing_kind(tokenizer_.token_bytes(token));
      }
    }
  }

  // Each walk has its own generator, so `--seed S --count 1` repeats any walk of a longer run.
  Walk walk(std::uint64_t seed) {
    random_.seed(seed);
    Matcher matcher(constraint_);
    Walk walk;
    if (!prefix_.empty()) take_prefix(matcher, walk);
    while (true) {
      auto start = Clock::now();
      matcher.fill_next_token_bitmask(std::span<std::uint32_t>(mask_));
      mask_times_.push_back(
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start));
      collect_ids(mask_, eos_, candidates_);
      const bool eos_allowed =
          allowed(eos_) && (walk.tokens >= settings_.min_tokens || candidates_.empty());
      if (settings_.max_token_bytes != 0)
        keep_short_tokens(tokenizer_, settings_.max_token_bytes, candidates_);
      if (eos_allowed && (candidates_.empty() || take_eos_first())) {
        walk.end = WalkEnd::kEos;
        return walk;
      }
      if (take_closing_only()) keep_closing_tokens();
      if (eos_allowed) candidates_.push_back(eos_);  // uniform among all, EOS included
      if (candidates_.empty()) {
        walk.end = WalkEnd::kDeadEnd;
        return walk;
      }
      std::uniform_int_distribution<std::size_t> pick(0, candidates_.size() - 1);
      const std::int32_t token = candidates_[pick(random_)];
      if (token == eos_) {
        walk.end = WalkEnd::kEos;
        return walk;
      }
      if (walk.tokens == settings_.max_tokens) {
        walk.end = WalkEnd::kLimit;
        return walk;
      }
      start = Clock::now();
      // A token the mask allowed: a refusal is an engine bug, reported as an internal error.
      if (!matcher.accept_token(token))
        throw std::logic_error(
            fmt::format("the mask allowed token {} but the matcher refused it", token));
      commit_times_.push_back(
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start));
      walk.text += tokenizer_.token_bytes(token);
      ++walk.tokens;
    }
  }

  const std::vector<std::chrono::nanoseconds>& mask_times() const { return mask_times_; }
  const std::vector<std::chrono::nanoseconds>& commit_times() const { return commit_times_; }

 private:
  // Commits the first k tokens of the prefix, k drawn uniformly from 0 to all of them, checking
  // each against the engine's mask: the prefix is a real text, so the walk goes on from a point
  // uniform draws from the start would hardly reach (inside a method body, an expression).
  void take_prefix(Matcher& matcher, Walk& walk) {
    const std::size_t cut = std::uniform_int_distribution<std::size_t>(0, prefix_.size())(random_);
    for (std::size_t i = 0; i < cut; ++i) {
      const std::int32_t token = prefix_[i];
      const auto start = Clock::now();
      matcher.fill_next_token_bitmask(std::span<std::uint32_t>(mask_));
      mask_times_.push_back(
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start));
      if (!allowed(token)) {
        throw Error(
            fmt::format(
                "--prefix: token {} (id {}) at byte {} is not allowed by the mask; the file is not "
                "a prefix of a sentence, or the engine is wrong (compare it with the oracle)",
                i, token, walk.text.size()),
            ErrorCode::kRejected);
      }
      matcher.commit_token(token);
      walk.text += tokenizer_.token_bytes(token);
    }
    walk.prefix_tokens = cut;
    walk.prefix_bytes = walk.text.size();
  }

  // With --eos-bias: EOS is taken with that probability before the uniform draw (which then
  // leaves it out). Without: never first; EOS joins the uniform draw.
  bool take_eos_first() {
    if (settings_.eos_bias < 0) return false;
    return std::bernoulli_distribution(settings_.eos_bias)(random_);
  }

  // Without --close-bias no draw is spent, so walks stay those of earlier runs with their seeds.
  bool take_closing_only() {
    if (settings_.close_bias <= 0) return false;
    return std::bernoulli_distribution(settings_.close_bias)(random_);
  }

  // Keeps the candidates of one closing kind, drawn uniformly among the kinds present (unless
  // there are none). Kinds, not tokens, are drawn: inside a line comment every closer is
  // allowed and hundreds of them are brackets, while a newline, the one that ends it, is a few.
  void keep_closing_tokens() {
    kinds_.clear();
    for (const std::int32_t id : candidates_) {
      const char kind = closing_[id];
      if (kind != 0 && std::find(kinds_.begin(), kinds_.end(), kind) == kinds_.end())
        kinds_.push_back(kind);
    }
    if (kinds_.empty()) return;
    std::sort(kinds_.begin(), kinds_.end());  // the draw must not depend on the ids' order
    const char kind =
        kinds_[std::uniform_int_distribution<std::size_t>(0, kinds_.size() - 1)(random_)];
    candidates_.erase(std::remove_if(candidates_.begin(), candidates_.end(),
                                     [&](std::int32_t id) { return closing_[id] != kind; }),
                      candidates_.end());
  }

  bool allowed(std::int32_t token) const {
    const auto id = static_cast<std::size_t>(token);
    return ((mask_[id / 32] >> (id % 32)) & 1u) != 0;
  }

  const Constraint& constraint_;
  const Tokenizer& tokenizer_;
  std::int32_t eos_;
  WalkSettings settings_;
  std::vector<std::int32_t> prefix_;
  std::mt19937_64 random_;
  std::vector<std::uint32_t> mask_;
  std::vector<std::int32_t> candidates_;
  std::vector<char> closing_;  // closing_kind by token id; filled only with --close-bias
  std::vector<char> kinds_;
  std::vector<std::chrono::nanoseconds> mask_times_, commit_times_;
};

}  // namespace

int run_generate(const CommandArgs& argv) {
  const auto [options, source, limits, args] =
      parse_decoding_command(argv,
                             {"tokenizer", "seed", "max-tokens", "count", "eos-bias", "min-tokens",
                              "close-bias", "max-token-bytes", "engine", "prefix"},
                             {"json-lines"}, kGenerateUsage);
  const std::uint64_t seed = parse_count_option("seed", args.required("seed"), 0);
  WalkSettings settings;
  settings.max_tokens = parse_count_option("max-tokens", args.required("max-tokens"), 1);
  if (const auto bias = args.value("eos-bias"))
    settings.eos_bias = parse_probability_option("eos-bias", *bias);
  if (const auto tokens = args.value("min-tokens"))
    settings.min_tokens = parse_count_option("min-tokens", *tokens, 0);
  if (const auto bias = args.value("close-bias"))
    settings.close_bias = parse_probability_option("close-bias", *bias);
  if (const auto bytes = args.value("max-token-bytes"))
    settings.max_token_bytes =
        static_cast<std::size_t>(parse_count_option("max-token-bytes", *bytes, 1));
  const std::uint64_t count =
      args.value("count") ? parse_count_option("count", *args.value("count"), 1) : 1;
  // The fastest exact engine by default: walks take as many masks as they take tokens.
  const Engine engine = parse_engine("--engine", args.value_or("engine", "auto"));
  const bool json_lines = args.flag("json-lines");

  const auto prefix_path = args.value("prefix");
  const std::string tokenizer_name = args.required("tokenizer");
  const Tokenizer tokenizer = Tokenizer::load(tokenizer_name);
  if (tokenizer.stop_ids().empty())
    throw Error(fmt::format("tokenizer {}: no EOS token ({}); a walk needs one to end a text",
                            tokenizer_name, tokenizer.description()),
                ErrorCode::kInvalidArgument);
  const Constraint constraint = compile_constraint(
      constraint_source(source, source.needs_path() ? args.positional()[0] : "", options),
      tokenizer, engine, 0, limits);
  std::vector<std::int32_t> prefix;
  if (prefix_path) {
    try {
      prefix = tokenizer.encode(read_input_file(*prefix_path));
    } catch (const Error& e) {
      throw Error(fmt::format("{}: {}", *prefix_path, e.what()), e.code(), e.where());
    }
  }

  Walker walker(constraint, settings, std::move(prefix));
  std::uint64_t ended[3] = {0, 0, 0};
  for (std::uint64_t k = 0; k < count; ++k) {
    const Walk walk = walker.walk(seed + k);
    ++ended[static_cast<int>(walk.end)];
    if (json_lines) {
      fmt::print(
          "{{\"walk\":{},\"seed\":{},\"end\":\"{}\",\"prefix_tokens\":{},\"prefix_bytes\":{},"
          "\"tokens\":{},\"bytes\":{},\"valid_utf8\":{},\"text\":{}}}\n",
          k, seed + k, end_name(walk.end), walk.prefix_tokens, walk.prefix_bytes, walk.tokens,
          walk.text.size(), is_valid_utf8(walk.text), json_string(walk.text));
    } else {
      const std::string prefix_note =
          prefix_path ? fmt::format(" (from a prefix of {} tokens)", walk.prefix_tokens) : "";
      fmt::print("walk {} (seed {}): {} after {} tokens{}, {} bytes: {}\n", k, seed + k,
                 end_name(walk.end), walk.tokens, prefix_note, walk.text.size(),
                 json_string(walk.text));
    }
    std::fflush(stdout);  // walks can be slow; show each as it completes
  }
  if (!json_lines) {
    fmt::print("walks        {}: {} ended by EOS, {} by the limit, {} dead ends\n", count, ended[0],
               ended[1], ended[2]);
    fmt::print("mask us      {}\n", format_latency_line(summarize_latencies(walker.mask_times())));
    fmt::print("commit us    {}\n",
               format_latency_line(summarize_latencies(walker.commit_times())));
  }
  // A dead end (no token, not even EOS, allowed after a viable text) means the engine or the
  // vocabulary cannot continue a text the grammar can: a failure.
  return ended[2] == 0 ? 0 : 1;
}

}  // namespace glrmask::app
