// ambiguity: what grammar ambiguity costs a decoder. Every teacher-forced step of the corpus
// programs records the session's GSS heads, the live readings of the text so far (the parser
// stacks with their trees over the lexemes the text holds, glr/analysis/forest_parser.h), the
// lexical alternatives (the terminals in the tie of the last lexeme, and those the pending lexeme
// can still become), the wfa engine's counters and the get_mask latency; under each corpus's
// convention (SynCode's: the Lark policy) and under the GLR policy, where every conflict forks.
// Besides the real corpora, `expr` is the adversarial case: `e: e "+" e | e "*" e | NUM` over
// generated sums of 8 to 64 operands, whose GSS grows with the text under the GLR policy. Tables
// and plots of mask latency against GSS width and readings, and the widest steps with their
// readings shown.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "api/src/matcher_impl.h"
#include "experiments/studies/latency_histogram.h"
#include "experiments/studies/latency_summary.h"
#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "experiments/studies/teacher_forcing.h"
#include "glr/analysis/forest_grammar.h"
#include "glr/analysis/forest_parser.h"
#include "glr/session.h"
#include "harness/teacher_forcing.h"
#include "lexer/runtime/streaming_lexer.h"
#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"

namespace glrmask::experiments {
namespace {

using Clock = std::chrono::steady_clock;

struct Step {
  std::string grammar;
  std::string setting;
  std::string engine;
  std::string program;
  std::size_t step = 0;
  std::uint64_t byte_offset = 0;
  std::size_t heads = 0;
  double top_paths = 0;  // distinct stack tops of kTopDepth states: the GSS's width where the
                         // wfa reads it (1 for a single stack)
  glr::DerivationCount readings;
  std::size_t tie_width = 0;          // terminals of the last lexeme's label (0: none yet)
  std::size_t pending_terminals = 0;  // terminals the lexeme being read can still become
  double mask_us = 0;
  double pairs_visited = 0;
  double depth_read = 0;
  std::vector<std::string> shown;  // for the widest steps: a few readings, as stack symbols
};

constexpr std::uint32_t kTopDepth = 8;

// The number of paths of kTopDepth edges down from the heads (shorter where a stack ends first):
// how many different stack tops the GSS holds.
double top_paths(const glr::GssHeads& heads) {
  std::map<const glr::GssNode*, double> frontier;
  for (const glr::GssNodeRef& head : heads) frontier[head.get()] += 1;
  double ended = 0;
  for (std::uint32_t depth = 0; depth < kTopDepth && !frontier.empty(); ++depth) {
    std::map<const glr::GssNode*, double> next;
    for (const auto& [node, count] : frontier) {
      if (node->below().empty()) {
        ended += count;
        continue;
      }
      for (const glr::GssNode* below : node->below()) next[below] += count;
    }
    frontier = std::move(next);
  }
  for (const auto& [node, count] : frontier) ended += count;
  return ended;
}

double counter(std::span<const MaskCounter> counters, std::string_view name) {
  for (const MaskCounter& c : counters)
    if (c.name == name) return c.value;
  return 0;
}

// "1", "2", "3-4", "5-8", "9-16", "17+" (GSS width: stack tops) or "1", "2", "3-10", "11-1000",
// ">1000", "infinite" (readings): the buckets of the tables and plots.
std::string width_bucket(double paths) {
  if (paths <= 2) return fmt::format("{}", paths);
  if (paths <= 4) return "3-4";
  if (paths <= 8) return "5-8";
  if (paths <= 16) return "9-16";
  return "17+";
}
std::string readings_bucket(const glr::DerivationCount& readings) {
  if (readings.infinite) return "infinite";
  if (readings.value <= 2) return readings.value.str();
  if (readings.value <= 10) return "3-10";
  if (readings.value <= 1000) return "11-1000";
  return ">1000";
}
int width_bucket_rank(const std::string& bucket) {
  static const std::vector<std::string> order = {"0", "1", "2", "3-4", "5-8", "9-16", "17+"};
  return static_cast<int>(std::find(order.begin(), order.end(), bucket) - order.begin());
}
int readings_bucket_rank(const std::string& bucket) {
  static const std::vector<std::string> order = {"0",       "1",     "2",       "3-10",
                                                 "11-1000", ">1000", "infinite"};
  return static_cast<int>(std::find(order.begin(), order.end(), bucket) - order.begin());
}

// Up to `limit` readings of the stacks' tops, each as its symbols with the tokens they span,
// bottom first: `e[0..5) PLUS[5] NUM[6]` (no commas: the cell stays unquoted in CSV).
std::vector<std::string> show_stacks(const glr::ForestParser& parser,
                                     const glr::ForestGrammar& grammar, std::size_t limit,
                                     std::size_t width) {
  std::vector<std::string> shown;
  for (const std::vector<glr::ForestNodeId>& top : parser.stack_tops(limit, width)) {
    std::string text = top.size() == width ? "..." : "";
    for (std::size_t i = top.size(); i-- > 0;) {
      const glr::ParseForest::SymbolNode& node = parser.forest().node(top[i]);
      const std::string name = grammar.lr_grammar().name(node.symbol);
      text += (text.empty() ? "" : " ") +
              (node.is_leaf ? fmt::format("{}[{}]", name, node.start)
                            : fmt::format("{}[{}..{})", name, node.start, node.end));
    }
    shown.push_back(text);
  }
  return shown;
}

// The adversarial corpus: operators without precedence over sums and products of n operands,
// written into `dir` (so that a report names its inputs). Its convention is Lark's policy, under
// which the table is deterministic (shift wins).
Corpus expression_corpus(const std::filesystem::path& dir, bool small) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path grammar = dir / "expr.lark";
  std::ofstream(grammar) << "// Operators without precedence: every bracketing is a tree.\n"
                            "start: e\ne: e \"+\" e | e \"*\" e | NUM\nNUM: /[0-9]+/\n"
                            "%ignore \" \"\n";
  Corpus corpus;
  corpus.name = "expr";
  corpus.grammar_path = grammar;
  corpus.options.policy = glr::ConflictPolicy::kLark;
  for (const int operands : small ? std::vector<int>{8, 16, 32} : std::vector<int>{8, 16, 32, 64}) {
    std::string text = "1";
    for (int i = 2; i <= operands; ++i) text += fmt::format(" {} {}", i % 3 == 0 ? '*' : '+', i);
    const std::string name = fmt::format("sum-{}.txt", operands);
    std::ofstream(dir / name) << text;
    corpus.texts.push_back({name, text});
  }
  return corpus;
}

}  // namespace

int run_ambiguity(const StudyOptions& options) {
  const std::string study = "ambiguity";
  // The named corpora, then `expr` when asked for (by default, or in --grammars).
  std::vector<std::string> names =
      options.grammars.empty() ? std::vector<std::string>{"go", "java", "sql", "json", "expr"}
                               : options.grammars;
  const bool with_expression = std::erase(names, "expr") > 0 && options.grammar_file.empty();
  std::vector<Corpus> corpora;
  if (!names.empty() || !options.grammar_file.empty()) {
    StudyOptions named = options;
    named.grammars = names;
    corpora = load_corpora(named, names, options.small() ? 2 : 0);
  }
  const std::vector<std::string> tokenizers = tokenizer_names(options, {"llama3"});
  // Each corpus's convention, and the GLR policy, unless --policy names one.
  std::vector<std::string> settings = {"convention", "glr"};
  if (!options.policy.empty()) settings = {options.policy};
  StudyReport report(options.out_dir, "Grammar ambiguity and what it costs a decoder",
                     describe_run(study, options.size_name(), tokenizers));
  if (with_expression)
    corpora.push_back(expression_corpus(report.dir() / "expr_inputs", options.small()));

  std::ofstream steps_file(report.dir() / "steps.csv", std::ios::binary);
  steps_file << csv_line({"grammar", "setting", "engine", "tokenizer", "program", "step",
                          "byte_offset", "gss_heads", "top_paths", "readings", "tie_width",
                          "pending_terminals", "mask_us", "gss_pairs_visited", "stack_depth_read"});
  ResultTable failures({"grammar", "setting", "engine", "program", "failure"});
  std::vector<Step> all;
  std::vector<std::string> groups;  // "grammar setting engine", in order

  for (const Corpus& corpus : corpora) {
    for (const std::string& setting : settings) {
      StudyOptions variant = options;
      variant.policy = setting == "convention" ? "" : setting;
      const auto grammar = compile_corpus_grammar(corpus, variant);
      if (grammar->indenter() != nullptr) {
        progress(study, fmt::format("{}: skipped (a post-lexer: no forest)", corpus.name));
        break;
      }
      const glr::ForestGrammar forest_grammar(grammar);
      for (const std::string& tokenizer_arg : tokenizers) {
        const auto tokenizer = load_tokenizer(tokenizer_arg);
        const std::vector<EncodedText> texts = encode_corpus(corpus, *tokenizer);
        // The wfa and the spanner (the trie-walking design the wfa is measured against), each
        // where it accepts the setting (the wfa refuses Go's skippable EOS under the GLR
        // policy), or --engines.
        const std::vector<std::string> engine_list =
            options.engines.empty() ? std::vector<std::string>{"wfa", "spanner"} : options.engines;
        for (const std::string& engine_name : engine_list) {
          auto engine = make_engine(engine_name, grammar, tokenizer->vocabulary);
          if (!engine) continue;
          const Constraint constraint = study_constraint(*tokenizer, grammar, std::move(engine));
          const std::string group = fmt::format("{} {} {}", corpus.name, setting, engine_name);
          groups.push_back(group);
          for (std::size_t t = 0; t < texts.size(); ++t) {
            const EncodedText& text = texts[t];
            const std::string& source = text.text->text;
            progress(study, fmt::format("{}: {} ({} of {}, {} tokens)", group, text.text->name,
                                        t + 1, texts.size(), text.tokens.size()));
            // The lexemes of the whole text; a step's readings cover those inside its prefix.
            std::vector<lexer::Lexeme> lexemes;
            try {
              lexemes = lexer::lex_text(grammar->dfa(), source);
            } catch (const Error& e) {
              failures.add_row(
                  {corpus.name, setting, engine_name, text.text->name, portable_message(e.what())});
              continue;
            }
            glr::ForestParser forest(forest_grammar);
            std::size_t fed = 0;
            bool forest_failed = false;
            // The library's teacher-forcing loop; at each step the observer reads the parse
            // state (heads, lexer configuration) of the matcher's session.
            Matcher matcher(constraint);
            TeacherForcingOptions forcing;
            if (options.max_steps != 0) forcing.max_steps = options.max_steps;
            const std::vector<std::int32_t> ids(text.tokens.begin(), text.tokens.end());
            const glrmask::ForcedRun run =
                teacher_force(matcher, ids, forcing, {}, [&](const ForcedStep& forced) {
                  const glr::Session& session = forced.matcher->impl().session;
                  Step step;
                  step.grammar = corpus.name;
                  step.setting = setting;
                  step.engine = engine_name;
                  step.program = text.text->name;
                  step.step = forced.step;
                  step.byte_offset = forced.byte_offset;
                  step.heads = session.heads().size();
                  step.top_paths = top_paths(session.heads());
                  while (!forest_failed && fed < lexemes.size() &&
                         lexemes[fed].end <= step.byte_offset) {
                    forest_failed = !forest.feed(lexemes[fed]);
                    ++fed;
                  }
                  if (forest_failed) {
                    step.readings = glr::DerivationCount{false, 0};
                  } else if (forced.is_stop && fed == lexemes.size() && forest.finish()) {
                    step.readings = forest.derivations();  // the EOS step: the whole text's trees
                  } else {
                    step.readings = forest.live_readings();
                  }
                  if (!forest.lexemes().empty())
                    step.tie_width =
                        grammar->dfa().label_terminals(forest.lexemes().back().label).size();
                  step.pending_terminals =
                      grammar->dfa().viable_terminals(session.lexer_configuration().state).size();
                  step.mask_us =
                      std::chrono::duration<double, std::micro>(forced.mask_time).count();
                  const std::span<const MaskCounter> counters =
                      forced.matcher->last_mask_counters();
                  step.pairs_visited = counter(counters, "gss_pairs_visited");
                  step.depth_read = counter(counters, "stack_depth_read");
                  if (step.top_paths >= 2 || step.readings.infinite || step.readings.value >= 3)
                    step.shown = show_stacks(forest, forest_grammar, 3, 6);
                  steps_file << csv_line(
                      {step.grammar, step.setting, step.engine, tokenizer->name, step.program,
                       std::to_string(step.step), std::to_string(step.byte_offset),
                       std::to_string(step.heads), fmt::format("{}", step.top_paths),
                       step.readings.str(), std::to_string(step.tie_width),
                       std::to_string(step.pending_terminals), format_fixed(step.mask_us, 2),
                       fmt::format("{}", step.pairs_visited), fmt::format("{}", step.depth_read)});
                  all.push_back(std::move(step));
                  return true;
                });
            if (run.failure)
              failures.add_row(
                  {corpus.name, setting, engine_name, text.text->name,
                   run.failure->masked
                       ? fmt::format("step {}: the token is not in the mask", run.failure->step)
                       : fmt::format("step {}: {}", run.failure->step,
                                     portable_message(run.failure->reason))});
          }
        }
      }
    }
  }
  steps_file.close();

  // Summary per group.
  ResultTable summary({"grammar", "setting", "engine", "programs", "steps", "heads_max",
                       "width_max", "steps_width_gt1", "readings_max", "steps_readings_gt1",
                       "steps_tie", "mask_mean", "mask_p50", "mask_p99", "mask_p50_width1",
                       "mask_p50_width_gt1", "pairs_mean_width1", "pairs_mean_width_gt1"});
  // Latency against GSS width and readings, per group and bucket.
  ResultTable by_heads({"grammar", "setting", "engine", "gss_width", "steps", "heads_mean",
                        "mask_mean", "mask_p50", "mask_p99", "pairs_mean", "depth_mean"});
  ResultTable by_readings({"grammar", "setting", "engine", "readings", "steps", "mask_mean",
                           "mask_p50", "mask_p99", "heads_mean"});
  for (const std::string& group : groups) {
    std::vector<const Step*> steps;
    for (const Step& s : all)
      if (fmt::format("{} {} {}", s.grammar, s.setting, s.engine) == group) steps.push_back(&s);
    if (steps.empty()) continue;
    const Step& first = *steps.front();
    std::vector<double> mask, mask1, mask_wide, pairs1, pairs_wide;
    std::size_t heads_max = 0, wide = 0, ambiguous = 0, ties = 0;
    double width_max = 0;
    glr::DerivationCount readings_max{false, 0};
    std::map<std::string, std::size_t> programs;
    std::map<std::string, std::vector<const Step*>> heads_buckets, readings_buckets;
    for (const Step* s : steps) {
      programs[s->program] += 1;
      mask.push_back(s->mask_us);
      heads_max = std::max(heads_max, s->heads);
      width_max = std::max(width_max, s->top_paths);
      const bool is_wide = s->top_paths > 1;
      (is_wide ? mask_wide : mask1).push_back(s->mask_us);
      (is_wide ? pairs_wide : pairs1).push_back(s->pairs_visited);
      if (is_wide) ++wide;
      if (s->readings.infinite || s->readings.value > 1) ++ambiguous;
      if (s->tie_width > 1) ++ties;
      if (!readings_max.infinite &&
          (s->readings.infinite || s->readings.value > readings_max.value))
        readings_max = s->readings;
      heads_buckets[width_bucket(s->top_paths)].push_back(s);
      readings_buckets[readings_bucket(s->readings)].push_back(s);
    }
    auto share = [&](std::size_t count) {
      return fmt::format("{} ({:.1f}%)", count,
                         100.0 * static_cast<double>(count) / static_cast<double>(steps.size()));
    };
    summary.add_row(
        {first.grammar, first.setting, first.engine, std::to_string(programs.size()),
         std::to_string(steps.size()), std::to_string(heads_max), fmt::format("{}", width_max),
         share(wide), readings_max.str(), share(ambiguous), share(ties),
         format_fixed(mean(mask), 2), format_fixed(percentile(mask, 50), 2),
         format_fixed(percentile(mask, 99), 2),
         mask1.empty() ? "" : format_fixed(percentile(mask1, 50), 2),
         mask_wide.empty() ? "" : format_fixed(percentile(mask_wide, 50), 2),
         pairs1.empty() || first.engine != "wfa" ? "" : format_fixed(mean(pairs1), 1),
         pairs_wide.empty() || first.engine != "wfa" ? "" : format_fixed(mean(pairs_wide), 1)});
    std::vector<std::pair<std::string, std::vector<const Step*>>> ordered(heads_buckets.begin(),
                                                                          heads_buckets.end());
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
      return width_bucket_rank(a.first) < width_bucket_rank(b.first);
    });
    for (const auto& [bucket, members] : ordered) {
      std::vector<double> m, p, d;
      double heads = 0;
      for (const Step* s : members) {
        m.push_back(s->mask_us);
        p.push_back(s->pairs_visited);
        d.push_back(s->depth_read);
        heads += static_cast<double>(s->heads);
      }
      by_heads.add_row(
          {first.grammar, first.setting, first.engine, bucket, std::to_string(members.size()),
           format_fixed(heads / static_cast<double>(members.size()), 2), format_fixed(mean(m), 2),
           format_fixed(percentile(m, 50), 2), format_fixed(percentile(m, 99), 2),
           first.engine == "wfa" ? format_fixed(mean(p), 1) : "",
           first.engine == "wfa" ? format_fixed(mean(d), 1) : ""});
    }
    std::vector<std::pair<std::string, std::vector<const Step*>>> by_count(readings_buckets.begin(),
                                                                           readings_buckets.end());
    std::sort(by_count.begin(), by_count.end(), [](const auto& a, const auto& b) {
      return readings_bucket_rank(a.first) < readings_bucket_rank(b.first);
    });
    for (const auto& [bucket, members] : by_count) {
      std::vector<double> m;
      double heads = 0;
      for (const Step* s : members) {
        m.push_back(s->mask_us);
        heads += static_cast<double>(s->heads);
      }
      by_readings.add_row({first.grammar, first.setting, first.engine, bucket,
                           std::to_string(members.size()), format_fixed(mean(m), 2),
                           format_fixed(percentile(m, 50), 2), format_fixed(percentile(m, 99), 2),
                           format_fixed(heads / static_cast<double>(members.size()), 2)});
    }
  }

  // The widest steps: by GSS heads, then readings; one per program and group.
  std::vector<const Step*> widest;
  for (const Step& s : all)
    if (!s.shown.empty()) widest.push_back(&s);
  std::sort(widest.begin(), widest.end(), [](const Step* a, const Step* b) {
    if (a->top_paths != b->top_paths) return a->top_paths > b->top_paths;
    if (a->heads != b->heads) return a->heads > b->heads;
    if (a->readings.infinite != b->readings.infinite) return a->readings.infinite;
    return a->readings.value > b->readings.value;
  });
  ResultTable widest_table({"grammar", "setting", "program", "step", "byte_offset", "gss_heads",
                            "gss_width", "readings", "mask_us", "text_before", "readings_shown"});
  std::map<std::string, int> per_program;
  for (const Step* s : widest) {
    if (widest_table.rows().size() >= 12) break;
    if (per_program[s->grammar + s->setting + s->program]++ > 0) continue;
    std::string text_before;
    for (const Corpus& corpus : corpora) {
      if (corpus.name != s->grammar) continue;
      for (const CorpusText& t : corpus.texts) {
        if (t.name != s->program) continue;
        const std::size_t from = s->byte_offset > 40 ? s->byte_offset - 40 : 0;
        text_before = t.text.substr(from, s->byte_offset - from);
      }
    }
    std::string escaped;
    for (const char c : text_before) escaped += c == '\n' ? std::string("\\n") : std::string(1, c);
    std::string shown;
    for (const std::string& stack : s->shown) shown += (shown.empty() ? "" : " / ") + stack;
    widest_table.add_row({s->grammar, s->setting, s->program, std::to_string(s->step),
                          std::to_string(s->byte_offset), std::to_string(s->heads),
                          fmt::format("{}", s->top_paths), s->readings.str(),
                          format_fixed(s->mask_us, 2), "…" + escaped, shown});
  }

  report.add_text(
      "Teacher forcing with the first tokenizer: every token of each program, then EOS. Per "
      "step, before the token is committed: the session's GSS heads; the GSS width, the number of "
      "distinct stack tops of 8 states (paths of 8 edges "
      "down from the heads: 1 for one stack, however deep; heads alone miss the forks below "
      "them, since heads are merged by state); the live readings of the "
      "text so far (the parser stacks with their trees over the lexemes of the final text that "
      "lie inside the prefix, `glr::ForestParser::live_readings`; at the EOS step, the whole "
      "text's derivations); `steps_tie`, steps whose last lexeme was a tie the lexer kept; the "
      "get_mask "
      "latency (`mask_view`, µs) and the engine's counters (`gss_pairs_visited`, "
      "`stack_depth_read`). `convention` is the corpus's convention (SynCode's: Lark's policy, "
      "Go with the skippable EOS; `expr`: Lark's policy), `glr` the GLR policy, where every "
      "conflict forks; each setting is masked by the wfa and by the spanner (GreatGramma's token "
      "spanner on the GSS, the design that walks the parser per token), where they accept it "
      "(the wfa refuses Go's skippable EOS under the GLR policy). `expr` is `e: e \"+\" e | e "
      "\"*\" e | NUM` "
      "over generated sums of 8 to 64 operands (`expr_inputs/`), the case where the GSS grows "
      "with the text. Means are sensitive to a few steps the shared machine delayed; compare "
      "medians (p50). Per-step rows are in steps.csv.");
  report.add_table("summary", "Ambiguity and mask latency per grammar and setting", summary);
  report.add_table("by_width", "Mask latency by GSS width: distinct stack tops of 8 states (µs)",
                   by_heads);
  report.add_table("by_readings", "Mask latency by live readings (µs)", by_readings);
  report.add_table("widest",
                   "The widest steps, with up to three readings of the stacks' tops (symbols with "
                   "the tokens they span, bottom first)",
                   widest_table);
  if (!failures.rows().empty()) report.add_table("failures", "Programs that stopped", failures);

  // Plot: mean mask latency and mean pairs visited per GSS width bucket, one line per group.
  ResultTable plot({"group", "bucket", "rank", "mask_mean", "pairs_mean"});
  for (const auto& row : by_heads.rows())
    plot.add_row({row[0] + "-" + row[1] + "-" + row[2], row[3],
                  std::to_string(width_bucket_rank(row[3])), row[7], row[9]});
  std::string plot_data;
  std::vector<std::string> plotted;
  for (const std::string& group : groups) {
    std::string name = group;
    std::replace(name.begin(), name.end(), ' ', '-');
    bool any = false;
    for (const auto& row : plot.rows()) {
      if (row[0] != name) continue;
      if (!any) plot_data += fmt::format("# {}\n", name);
      any = true;
      plot_data += fmt::format("{},{},{},{}\n", row[2], row[3], row[4], row[1]);
    }
    if (any) {
      plot_data += "\n\n";
      plotted.push_back(name);
    }
  }
  report.write_file("by_heads.dat", plot_data);
  if (!plotted.empty()) {
    std::string commands =
        "set xlabel 'GSS width (stack tops of 8 states)'\nset ylabel 'median get_mask latency "
        "(us)'\n"
        "set logscale y\n"
        "set xtics ('1' 1, '2' 2, '3-4' 3, '5-8' 4, '9-16' 5, '17+' 6)\n"
        "set xrange [0.5:6.5]\nplot ";
    for (std::size_t i = 0; i < plotted.size(); ++i)
      commands += fmt::format(
          "{}'by_heads.dat' index {} using 1:2 with linespoints linewidth 2 "
          "pointtype 7 title '{}'",
          i ? ", " : "", i, plotted[i]);
    report.add_plot("mask_by_heads", "get_mask latency against GSS width", commands + "\n");
    std::string pairs =
        "set xlabel 'GSS width (stack tops of 8 states)'\n"
        "set ylabel 'mean GSS pairs visited per mask'\nset logscale y\n"
        "set xtics ('1' 1, '2' 2, '3-4' 3, '5-8' 4, '9-16' 5, '17+' 6)\n"
        "set xrange [0.5:6.5]\nplot ";
    for (std::size_t i = 0; i < plotted.size(); ++i)
      pairs += fmt::format(
          "{}'by_heads.dat' index {} using 1:3 with linespoints linewidth 2 "
          "pointtype 7 title '{}'",
          i ? ", " : "", i, plotted[i]);
    report.add_plot("pairs_by_heads", "wfa work against GSS width", pairs + "\n");
  }
  report.finish();
  return 0;
}

}  // namespace glrmask::experiments
