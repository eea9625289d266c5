// token_classes: CFGzip's Table 1 (paper 002) for the wfa engine's compiled automaton. Per
// grammar and tokenizer: how many classes of tokens no Parser DWA weight ever separates (so no
// wfa mask can), against the vocabulary size; the same over the Terminal DWA's weights (the
// lexer's view); how long the classes take and how long the compile took. A few of the largest
// classes are listed so a reader sees what is merged.
#include "mask/compiled/token_classes.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "experiments/studies/studies.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_report.h"
#include "lib/core/error.h"
#include "lib/core/escape.h"
#include "lib/core/settings.h"
#include "mask/compiled/compiled_mask.h"

namespace glrmask::experiments {
namespace {

const std::vector<std::string> kTokenClassColumns = {
    "grammar",        "tokenizer",     "vocabulary",    "parser_weights",
    "classes",        "lexer_weights", "lexer_classes", "lexer_refines_parser",
    "compression",    "largest_class", "singletons",    "never_allowed",
    "eos_class_size", "collisions",    "classes_cpu_s", "lexer_classes_cpu_s",
    "compile_cpu_s",  "compile_s",     "note"};

// A token's bytes readable in a table cell: printable ASCII kept, the rest as \xNN, in quotes.
std::string quoted(std::string_view bytes) {
  return escape_bytes(bytes, {.keep_utf8 = false, .hex_controls = true, .hex_also = "\\\"`"});
}

// The class of the tokens that are in no weight (special tokens, holes, and tokens no grammar
// context allows), or nullopt when every token is in some weight.
std::optional<std::uint32_t> never_allowed_class(const TokenSetPool& pool,
                                                 std::span<const TokenSetId> weights,
                                                 const mask::TokenPartition& partition) {
  RoaringBitmap allowed;
  for (const TokenSetId weight : weights) allowed |= pool.get(weight);
  for (TokenId id = 0; id < partition.universe(); ++id)
    if (!allowed.contains(id)) return partition.class_of(id);
  return std::nullopt;
}

struct Measured {
  std::vector<std::string> cells;
  // For the examples table: the five largest classes of two or more tokens, never-allowed left
  // out, each as its size and up to eight shortest members.
  std::vector<std::pair<std::size_t, std::string>> examples;
  std::size_t classes = 0;
};

Measured measure(const std::string& grammar_label, const std::string& tokenizer_label_text,
                 const std::shared_ptr<const glr::CompiledGrammar>& grammar,
                 const Vocabulary& vocabulary) {
  Measured m;
  const double compile_cpu = process_cpu_seconds();
  const auto compile_started = std::chrono::steady_clock::now();
  const auto compiled = mask::CompiledMask::compile(grammar, vocabulary);
  const double compile_cpu_s = process_cpu_seconds() - compile_cpu;
  const double compile_s = seconds_since(compile_started);

  double started = process_cpu_seconds();
  const std::vector<TokenSetId> parser_weights = mask::mask_weights(compiled->parser_dwa());
  const mask::TokenPartition classes = mask::partition_tokens(compiled->pool(), parser_weights);
  const double classes_cpu_s = process_cpu_seconds() - started;
  started = process_cpu_seconds();
  const mask::TokenPartition lexer = mask::lexer_classes(*compiled, vocabulary.eos());
  const double lexer_cpu_s = process_cpu_seconds() - started;

  std::size_t largest = 0, singletons = 0;
  std::vector<std::uint32_t> by_size;
  const std::optional<std::uint32_t> never =
      never_allowed_class(compiled->pool(), parser_weights, classes);
  for (std::uint32_t c = 0; c < classes.num_classes(); ++c) {
    largest = std::max(largest, classes.class_size(c));
    if (classes.class_size(c) == 1) ++singletons;
    if (classes.class_size(c) >= 2 && c != never) by_size.push_back(c);
  }
  std::sort(by_size.begin(), by_size.end(), [&](std::uint32_t a, std::uint32_t b) {
    return classes.class_size(a) != classes.class_size(b)
               ? classes.class_size(a) > classes.class_size(b)
               : a < b;
  });
  for (std::size_t k = 0; k < std::min<std::size_t>(5, by_size.size()); ++k) {
    const auto members = classes.members(by_size[k]);
    std::vector<TokenId> shortest(members.begin(), members.end());
    std::stable_sort(shortest.begin(), shortest.end(), [&](TokenId a, TokenId b) {
      return vocabulary.bytes(a).size() < vocabulary.bytes(b).size();
    });
    shortest.resize(std::min<std::size_t>(8, shortest.size()));
    std::string listed;
    for (const TokenId id : shortest)
      listed += (listed.empty() ? "" : " ") +
                (vocabulary.eos() == id ? std::string("EOS") : quoted(vocabulary.bytes(id)));
    m.examples.emplace_back(members.size(), listed);
  }

  const std::size_t universe = classes.universe();
  const auto eos = vocabulary.eos();
  m.classes = classes.num_classes();
  m.cells = {
      grammar_label,
      tokenizer_label_text,
      std::to_string(universe),
      std::to_string(parser_weights.size()),
      std::to_string(classes.num_classes()),
      std::to_string(mask::lexer_weights(compiled->terminal_dwa()).size()),
      std::to_string(lexer.num_classes()),
      mask::refines(lexer, classes) ? "yes" : "no",
      format_fixed(static_cast<double>(universe) / static_cast<double>(classes.num_classes()), 1),
      std::to_string(largest),
      std::to_string(singletons),
      never ? std::to_string(classes.class_size(*never)) : "0",
      eos ? std::to_string(classes.class_size(classes.class_of(*eos))) : "",
      std::to_string(classes.signature_collisions() + lexer.signature_collisions()),
      format_fixed(classes_cpu_s, 3),
      format_fixed(lexer_cpu_s, 3),
      format_fixed(compile_cpu_s, 2),
      format_fixed(compile_s, 2),
      ""};
  return m;
}

}  // namespace

int run_token_classes(const StudyOptions& options) {
  const std::string study = "token_classes";
  const std::vector<Corpus> corpora = load_corpora(options, {"go", "java", "sql", "json"}, 1);
  const std::vector<std::string> tokenizers = tokenizer_names(
      options, options.small()
                   ? std::vector<std::string>{"llama2", "llama3", "qwen3"}
                   : std::vector<std::string>{"llama2", "llama3", "qwen3", "gemma3", "gptoss"});
  StudyReport report(options.out_dir, "Token equivalence classes (CFGzip Table 1)",
                     describe_run(study, options.size_name(), tokenizers));
  ResultTable table(kTokenClassColumns);
  ResultTable examples({"grammar", "tokenizer", "class_size", "shortest_members"});
  // The examples come from one tokenizer: Llama-3 when measured, else the first.
  const std::string example_tokenizer =
      std::find(tokenizers.begin(), tokenizers.end(), "llama3") != tokenizers.end()
          ? "llama3"
          : tokenizers.front();

  std::vector<std::string> plot_columns = {"vocabulary"};
  std::map<std::pair<std::string, std::size_t>, std::size_t> classes_at;  // (grammar, |V|)
  std::vector<std::size_t> vocabulary_sizes;
  std::vector<std::string> plotted;  // grammars with at least one measured row, in order
  for (const std::string& tokenizer : tokenizers) {
    const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer(tokenizer));
    vocabulary_sizes.push_back(vocabulary.size());
    const std::string label = tokenizer_label(tokenizer);
    for (const Corpus& corpus : corpora) {
      progress(study, fmt::format("{} / {}", corpus.name, label));
      const auto add = [&](const std::string& name,
                           const std::shared_ptr<const glr::CompiledGrammar>& grammar) {
        Measured m = measure(name, label, grammar, vocabulary);
        classes_at[{name, vocabulary.size()}] = m.classes;
        if (std::find(plotted.begin(), plotted.end(), name) == plotted.end())
          plotted.push_back(name);
        if (tokenizer == example_tokenizer)
          for (const auto& [size, members] : m.examples)
            examples.add_row({name, label, std::to_string(size), members});
        table.add_row(std::move(m.cells));
      };
      try {
        add(corpus.name, compile_corpus_grammar(corpus, options));
      } catch (const Error& refusal) {
        std::vector<std::string> cells(kTokenClassColumns.size());
        cells[0] = corpus.name;
        cells[1] = label;
        cells[2] = std::to_string(vocabulary.size());
        cells.back() = "refused: " + portable_message(refusal.what());
        table.add_row(std::move(cells));
        // SynCode's Go is refused for its skippable EOS; the same grammar without the skippable
        // convention and under the GLR policy still says what its classes look like.
        if (corpus.options.skippable.empty()) continue;
        progress(study, fmt::format("{}-glr / {}", corpus.name, label));
        glr::ParseOptions plain = corpus.options;
        plain.skippable.clear();
        plain.policy = glr::ConflictPolicy::kKeepAll;
        add(corpus.name + "-glr", glr::CompiledGrammar::load_lark(corpus.grammar_path, plain));
      }
    }
  }

  report.add_text(fmt::format(
      "Two tokens are in one class iff every distinct transition weight of the compiled Parser "
      "DWA (the sets every wfa mask is a union of) contains both or neither, so tokens of a "
      "class get the same bit in every mask of the `wfa` engine. Vocabulary: every token id, "
      "special tokens and holes included; EOS is a token like any other (it is in the weights "
      "of the start states where the input may end), non-EOS special tokens are in no weight "
      "and fall into the never-allowed class with the tokens no grammar context allows. "
      "Lexer classes: the same over the Terminal DWA's node weights, with EOS alone in its "
      "class (it emits end-of-input, which no byte string does); `lexer_refines_parser` checks "
      "that every lexer class lies inside one Parser DWA class. Compression: vocabulary / "
      "classes. Collisions: signature groups the exact pass had to split (expected 0). CPU "
      "times are process CPU time; compile_cpu_s sums the threads of the Terminal DWA build, "
      "compile_s is wall time on a shared machine. Grammars are SynCode's under the corpus "
      "conventions (docs/experiments.md); a grammar the wfa construction refuses is listed "
      "with the reason; `go-glr` is SynCode's Go grammar under the GLR policy without the "
      "skippable EOS (not SynCode's convention), measured because the convention is refused."));
  report.add_table("token_classes", "Classes per grammar and tokenizer", table);
  report.add_text(fmt::format(
      "The five largest classes of two or more tokens per grammar ({}; the never-allowed "
      "class left out), each with up to eight of its shortest members in quotes, non-printable "
      "bytes as \\xNN; the first would be CFGzip's representative.",
      tokenizer_label(example_tokenizer)));
  report.add_table("examples", "Example classes", examples);

  // The plot: classes against vocabulary size, one line per grammar that compiled somewhere.
  if (!plotted.empty()) {
    for (const std::string& name : plotted) plot_columns.push_back(name);
    ResultTable plot(plot_columns);
    std::vector<std::size_t> sizes = vocabulary_sizes;
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (const std::size_t size : sizes) {
      std::vector<std::string> row = {std::to_string(size)};
      for (const std::string& name : plotted) {
        const auto found = classes_at.find({name, size});
        row.push_back(found == classes_at.end() ? "NaN" : std::to_string(found->second));
      }
      plot.add_row(std::move(row));
    }
    report.add_data_table("plot", plot);
    report.add_plot("token_classes", "token classes against vocabulary size",
                    fmt::format("set logscale y\nset xlabel 'vocabulary size (token ids)'\n"
                                "set ylabel 'classes (Parser DWA)'\n"
                                "set key autotitle columnhead left top\n"
                                "plot for [i=2:{}] 'plot.csv' using 1:i with linespoints "
                                "linewidth 2 pointtype 7",
                                plot_columns.size()));
  }
  report.finish();
  return 0;
}

}  // namespace glrmask::experiments
