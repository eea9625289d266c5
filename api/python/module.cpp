// The Python module's native part (glrmask._glrmask): the facade's classes with the names and the
// bitmask layout the field's libraries use, so an integration written for one of them is a rename.
// glrmask/__init__.py adds what is easier in Python (torch tensors, the exception classes' Python
// side). The GIL is released while a mask is computed, so Python threads serving other sequences
// run meanwhile.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <string>
#include <vector>

#include "api/python/apply_bitmask.h"
#include "api/python/arrays.h"
#include "api/python/errors.h"
#include "api/python/hot_methods.h"
#include "glrmask/glrmask.hpp"

namespace py = pybind11;
using namespace glrmask;
using namespace glrmask::python;

namespace {

VocabType vocab_type(const std::string& name) {
  if (name == "raw") return VocabType::kRaw;
  if (name == "byte_fallback") return VocabType::kByteFallback;
  if (name == "byte_level") return VocabType::kByteLevel;
  throw Error("unknown vocab_type '" + name + "' (expected raw, byte_fallback or byte_level)",
              ErrorCode::kInvalidArgument);
}

Engine engine_of(const std::string& name) {
  if (const std::optional<Engine> engine = engine_from_name(name)) return *engine;
  std::string known;
  for (const Engine engine : all_engines())
    known += std::string(known.empty() ? "" : ", ") + engine_name(engine);
  throw Error("unknown engine '" + name + "' (expected one of " + known + ")",
              ErrorCode::kInvalidArgument);
}

JsonDraft json_draft(const std::string& name) {
  if (name == "4") return JsonDraft::k4;
  if (name == "6") return JsonDraft::k6;
  if (name == "7") return JsonDraft::k7;
  if (name == "2019-09") return JsonDraft::k2019_09;
  if (name == "2020-12") return JsonDraft::k2020_12;
  throw Error("unknown JSON Schema draft '" + name + "' (expected 4, 6, 7, 2019-09 or 2020-12)",
              ErrorCode::kInvalidArgument);
}

// `documents`: None, a dict URI -> JSON text, or an iterable of (URI, text) pairs.
std::vector<JsonDocument> json_documents(const py::object& documents) {
  std::vector<JsonDocument> result;
  if (documents.is_none()) return result;
  const auto text_of = [](const py::handle& value, const char* what) {
    if (!py::isinstance<py::str>(value))
      throw Error(std::string("documents: each ") + what + " must be a str, not " +
                      std::string(py::str(py::type::of(value).attr("__name__"))),
                  ErrorCode::kInvalidArgument);
    return value.cast<std::string>();
  };
  if (py::isinstance<py::dict>(documents)) {
    for (const auto& [uri, text] : documents.cast<py::dict>())
      result.push_back({text_of(uri, "URI"), text_of(text, "text")});
    return result;
  }
  if (py::isinstance<py::str>(documents) || py::isinstance<py::bytes>(documents) ||
      !py::isinstance<py::iterable>(documents))
    throw Error("documents: expected a dict URI -> JSON text or a list of (URI, text) pairs",
                ErrorCode::kInvalidArgument);
  for (const py::handle& pair : documents) {
    if (py::isinstance<py::str>(pair) || !py::isinstance<py::sequence>(pair) || py::len(pair) != 2)
      throw Error("documents: each item of the list must be a (URI, text) pair",
                  ErrorCode::kInvalidArgument);
    const py::sequence items = py::reinterpret_borrow<py::sequence>(pair);
    result.push_back({text_of(items[0], "URI"), text_of(items[1], "text")});
  }
  return result;
}

JsonOptions json_options(const std::string& whitespace, bool lenient,
                         const std::string& property_order = "schema",
                         const std::string& draft = "2020-12", bool assert_format = true,
                         const py::object& documents = py::none()) {
  JsonOptions options;
  if (whitespace == "default") {
    options.whitespace = JsonWhitespace::kDefault;
  } else if (whitespace == "compact") {
    options.whitespace = JsonWhitespace::kCompact;
  } else if (whitespace == "flexible") {
    options.whitespace = JsonWhitespace::kFlexible;
  } else {
    throw Error("unknown whitespace '" + whitespace + "' (expected default, compact or flexible)",
                ErrorCode::kInvalidArgument);
  }
  options.lenient = lenient;
  if (property_order == "any") {
    options.property_order = JsonPropertyOrder::kAny;
  } else if (property_order != "schema") {
    throw Error("unknown property order '" + property_order + "' (expected schema or any)",
                ErrorCode::kInvalidArgument);
  }
  options.default_draft = json_draft(draft);
  options.assert_format = assert_format;
  options.documents = json_documents(documents);
  return options;
}

GrammarOptions grammar_options(const std::string& start, const std::string& policy,
                               std::vector<std::string> skippable, const std::string& postlex) {
  GrammarOptions options;
  options.start = start;
  if (policy != "glr" && policy != "lark")
    throw Error("unknown policy '" + policy + "' (expected glr or lark)",
                ErrorCode::kInvalidArgument);
  options.policy = policy == "lark" ? ConflictPolicy::kLark : ConflictPolicy::kGlr;
  options.skippable = std::move(skippable);
  if (postlex != "none" && postlex != "python")
    throw Error("unknown postlex '" + postlex + "' (expected none or python)",
                ErrorCode::kInvalidArgument);
  options.postlex = postlex == "python" ? PostLexer::kPython : PostLexer::kNone;
  return options;
}

}  // namespace

PYBIND11_MODULE(_glrmask, m) {
  m.doc() = "glrmask: exact grammar-constrained decoding (the native part; import glrmask)";

  // Errors reach Python as glrmask.Error / glrmask.RejectionError (python/errors.h).
  m.def("_set_error_classes", &set_error_classes);
  py::register_exception_translator([](std::exception_ptr pointer) {
    if (!translate_error(pointer)) std::rethrow_exception(pointer);
  });

  py::class_<Tokenizer>(
      m, "Tokenizer",
      "A model's tokenizer as glrmask reads it: each token id's bytes, which ids are "
      "special, and the stop ids that end a text. Shared (read-only) by every "
      "constraint compiled against it.")
      .def_static(
          "load",
          [](const std::string& name_or_path, std::vector<std::int32_t> stop_ids,
             std::size_t vocab_size) {
            py::gil_scoped_release release;
            return Tokenizer::load(name_or_path, TokenizerOptions{std::move(stop_ids), vocab_size});
          },
          py::arg("name_or_path"), py::arg("stop_ids") = std::vector<std::int32_t>{}, py::kw_only(),
          py::arg("vocab_size") = 0,
          "A tokenizer from a tokenizer.json path (and the tokenizer_config.json beside it, "
          "for the EOS), or a name of the setup cache (llama2, llama3, qwen3, gemma3, "
          "gptoss; glrmask.cache_dir()). `stop_ids` replace the EOS; `vocab_size` is the "
          "model's logit width when it is larger than the tokenizer's ids (the ids between "
          "are never allowed).")
      .def_static(
          "from_tokenizer_json",
          [](const std::string& text, std::vector<std::int32_t> stop_ids, std::size_t vocab_size,
             const std::string& name, const std::string& config) {
            py::gil_scoped_release release;
            return Tokenizer::from_json(text, TokenizerOptions{std::move(stop_ids), vocab_size},
                                        name, config);
          },
          py::arg("text"), py::kw_only(), py::arg("stop_ids") = std::vector<std::int32_t>{},
          py::arg("vocab_size") = 0, py::arg("name") = "<tokenizer.json>", py::arg("config") = "",
          "A tokenizer from the text of a tokenizer.json (what a Hugging Face fast "
          "tokenizer's backend_tokenizer.to_str() returns) and optionally of its "
          "tokenizer_config.json (`config`, for the EOS); `name` names it in errors. See "
          "Tokenizer.load for `stop_ids` and `vocab_size`.")
      .def_static(
          "from_vocab",
          [](const std::vector<py::bytes>& vocab, const std::string& type,
             std::vector<std::int32_t> stop_ids, std::vector<std::int32_t> special_ids,
             std::size_t vocab_size) {
            std::vector<std::string> strings;
            strings.reserve(vocab.size());
            for (const py::bytes& token : vocab) strings.emplace_back(token);
            py::gil_scoped_release release;
            return Tokenizer::from_vocab(strings, vocab_type(type), std::move(stop_ids),
                                         special_ids, vocab_size);
          },
          py::arg("vocab"), py::arg("vocab_type"), py::arg("stop_ids"),
          py::arg("special_ids") = std::vector<std::int32_t>{}, py::kw_only(),
          py::arg("vocab_size") = 0,
          "A tokenizer from its token strings (bytes): id i is vocab[i], spelled as "
          "`vocab_type` says ('raw' bytes, 'byte_fallback' sentencepiece pieces with "
          "<0xNN>, 'byte_level' GPT-2's alphabet). `stop_ids` end a text; they and "
          "`special_ids` are never allowed as text. Such a tokenizer cannot encode.")
      .def(
          "serialize", [](const Tokenizer& t) { return py::bytes(t.serialize()); },
          "The tokenizer as bytes (its tokenizer.json or its strings, and the options), for "
          "Tokenizer.deserialize in another process; pickling uses it.")
      .def_static(
          "deserialize",
          [](const py::bytes& data) {
            const std::string bytes(data);
            py::gil_scoped_release release;
            return Tokenizer::deserialize(bytes);
          },
          py::arg("data"), "The tokenizer Tokenizer.serialize wrote.")
      .def(py::pickle([](const Tokenizer& t) { return py::make_tuple(py::bytes(t.serialize())); },
                      [](const py::tuple& state) {
                        if (state.size() != 1)
                          throw Error("not a pickled glrmask.Tokenizer",
                                      ErrorCode::kInvalidArgument);
                        return Tokenizer::deserialize(std::string(state[0].cast<py::bytes>()));
                      }))
      .def_property_readonly(
          "vocab_size", &Tokenizer::vocab_size,
          "The number of token ids (the model's vocabulary size when one was given).")
      .def_property_readonly("bitmask_words", &Tokenizer::bitmask_words,
                             "The int32 words of one bitmask row: ceil(vocab_size / 32).")
      .def_property_readonly(
          "stop_ids",
          [](const Tokenizer& t) {
            const auto ids = t.stop_ids();
            return std::vector<std::int32_t>(ids.begin(), ids.end());
          },
          "The ids that end a text, the first being the EOS.")
      .def("is_special", &Tokenizer::is_special,
           "Whether the id is a special token (never allowed as text).")
      .def(
          "token_bytes",
          [](const Tokenizer& t, std::int32_t id) {
            return py::bytes(std::string(t.token_bytes(id)));
          },
          "The bytes token `id` stands for.")
      .def(
          "decode",
          [](const Tokenizer& t, const std::vector<std::int32_t>& ids) {
            return py::bytes(t.decode(ids));
          },
          "The bytes of a sequence of token ids.")
      .def_property_readonly(
          "can_encode", &Tokenizer::can_encode,
          "Whether encode() works (a tokenizer read from a tokenizer.json can; one made "
          "from strings cannot).")
      .def("encode", &Tokenizer::encode, py::arg("text"), py::call_guard<py::gil_scoped_release>(),
           "The token ids of `text`, as the tokenizer.json's model encodes it.")
      .def("__repr__",
           [](const Tokenizer& t) { return "<glrmask.Tokenizer " + t.description() + ">"; });

  const Limits defaults;
  py::class_<Limits>(
      m, "Limits",
      "Budgets of a compile and of each decoding step; a budget that runs out raises "
      "glrmask.Error with code 'limit', naming it.")
      .def(py::init([](std::size_t max_lexer_states, std::size_t max_terminal_dwa_forks,
                       std::size_t max_parser_dwa_states, std::size_t max_parser_dwa_transitions,
                       std::size_t max_compile_memory_mib, std::uint64_t max_step_work,
                       double max_commit_seconds) {
             return Limits{max_lexer_states,       max_terminal_dwa_forks,
                           max_parser_dwa_states,  max_parser_dwa_transitions,
                           max_compile_memory_mib, max_step_work,
                           max_commit_seconds};
           }),
           py::kw_only(), py::arg("max_lexer_states") = defaults.max_lexer_states,
           py::arg("max_terminal_dwa_forks") = defaults.max_terminal_dwa_forks,
           py::arg("max_parser_dwa_states") = defaults.max_parser_dwa_states,
           py::arg("max_parser_dwa_transitions") = defaults.max_parser_dwa_transitions,
           py::arg("max_compile_memory_mib") = defaults.max_compile_memory_mib,
           py::arg("max_step_work") = defaults.max_step_work,
           py::arg("max_commit_seconds") = defaults.max_commit_seconds)
      .def_readwrite("max_lexer_states", &Limits::max_lexer_states,
                     "States of the lexer DFA before minimization.")
      .def_readwrite("max_terminal_dwa_forks", &Limits::max_terminal_dwa_forks,
                     "Lexer configurations the wfa engine's terminal automaton may reach.")
      .def_readwrite("max_parser_dwa_states", &Limits::max_parser_dwa_states,
                     "States of the wfa engine's Parser DWA.")
      .def_readwrite("max_parser_dwa_transitions", &Limits::max_parser_dwa_transitions,
                     "Live transitions of the Parser DWA.")
      .def_readwrite("max_compile_memory_mib", &Limits::max_compile_memory_mib,
                     "Memory a compile may take, in MiB.")
      .def_readwrite("max_step_work", &Limits::max_step_work,
                     "GSS edges one parser step may visit.")
      .def_readwrite("max_commit_seconds", &Limits::max_commit_seconds,
                     "Wall time one accept call may take.")
      .def(py::pickle(
          [](const Limits& l) {
            return py::make_tuple(l.max_lexer_states, l.max_terminal_dwa_forks,
                                  l.max_parser_dwa_states, l.max_parser_dwa_transitions,
                                  l.max_compile_memory_mib, l.max_step_work, l.max_commit_seconds);
          },
          [](const py::tuple& t) {
            if (t.size() != 7)
              throw Error("not a pickled glrmask.Limits", ErrorCode::kInvalidArgument);
            return Limits{t[0].cast<std::size_t>(), t[1].cast<std::size_t>(),
                          t[2].cast<std::size_t>(), t[3].cast<std::size_t>(),
                          t[4].cast<std::size_t>(), t[5].cast<std::uint64_t>(),
                          t[6].cast<double>()};
          }));

  m.def("version", &glrmask::version, "The loaded library's version.");
  m.def(
      "engine_names",
      [] {
        std::vector<std::string> names;
        for (const Engine engine : all_engines()) names.emplace_back(engine_name(engine));
        return names;
      },
      "Every engine's name, 'auto' first.");
  m.def("grammar_formats", &grammar_formats, "The formats Grammar.from_source takes.");

  py::class_<Warning>(m, "Warning",
                      "Something a grammar or schema compiled with, but not as written (an ignored "
                      "keyword, a widened pattern): `message` and `location`.")
      .def_readonly("message", &Warning::message, "What was not taken as written, and where.")
      .def_property_readonly(
          "location", [](const Warning& w) { return location_dict(w.where); },
          "The place: file, line, column, json_pointer, byte_offset, token.")
      .def("__str__", [](const Warning& w) { return w.message; })
      .def("__repr__", [](const Warning& w) { return "<glrmask.Warning " + w.message + ">"; });

  py::class_<Grammar>(
      m, "Grammar",
      "A parsed grammar before it meets a tokenizer: inspect it (to_lark(), warnings), "
      "then Constraint.compile it or give it to a Compiler.")
      .def_static(
          "from_source",
          [](const std::string& format, const std::string& text, const std::string& name,
             const std::string& start, const std::string& policy,
             std::vector<std::string> skippable, const std::string& postlex,
             const std::string& whitespace, bool lenient, const std::string& property_order,
             const std::string& draft, bool assert_format, const py::object& documents) {
            const SourceOptions options{
                grammar_options(start, policy, std::move(skippable), postlex),
                json_options(whitespace, lenient, property_order, draft, assert_format, documents)};
            py::gil_scoped_release release;
            return Grammar::from_source(format, text, options, name);
          },
          py::arg("format"), py::arg("text"), py::kw_only(), py::arg("name") = "",
          py::arg("start") = "start", py::arg("policy") = "glr",
          py::arg("skippable") = std::vector<std::string>{}, py::arg("postlex") = "none",
          py::arg("whitespace") = "default", py::arg("lenient") = false,
          py::arg("property_order") = "schema", py::arg("draft") = "2020-12",
          py::arg("assert_format") = true, py::arg("documents") = py::none(),
          "A grammar from text in one of grammar_formats() ('lark', 'json_schema', 'regex', "
          "'any_json', ...). Lark options: start, policy ('glr' or 'lark'), skippable, "
          "postlex ('none' or 'python'); JSON options: whitespace ('default', 'compact', "
          "'flexible'), lenient, property_order ('schema' or 'any'), draft (of a schema "
          "without $schema: '4', '6', '7', '2019-09' or '2020-12'), assert_format (False: "
          "`format` is an annotation, ignored), documents (what a $ref may name, nothing is "
          "fetched: a dict URI -> JSON text, or a list of (URI, text) pairs).")
      .def_property_readonly("format", &Grammar::format, "The format it was read from.")
      .def_property_readonly("name", &Grammar::name, "The name given, used in messages.")
      .def_property_readonly("warnings", &Grammar::warnings,
                             "What the front end compiled, but not as written.")
      .def_property_readonly("num_terminals", &Grammar::num_terminals,
                             "Terminals of the grammar's lexer.")
      .def_property_readonly("num_nonterminals", &Grammar::num_nonterminals,
                             "Nonterminals of the grammar.")
      .def_property_readonly("num_rules", &Grammar::num_rules, "Rules of the grammar.")
      .def_property_readonly("description", &Grammar::description,
                             "One line: the format, name and sizes.")
      .def("to_lark", &Grammar::to_lark,
           "The grammar as Lark text (a JSON Schema's rules, for instance).")
      .def("__str__", &Grammar::to_lark)
      .def("__repr__",
           [](const Grammar& g) { return "<glrmask.Grammar " + g.description() + ">"; });

  py::class_<CompilerCacheStatistics>(m, "CompilerCacheStatistics", "A Compiler's cache counters.")
      .def_readonly("hits", &CompilerCacheStatistics::hits, "Compiles answered from the cache.")
      .def_readonly("misses", &CompilerCacheStatistics::misses, "Compiles that compiled.")
      .def_readonly("entries", &CompilerCacheStatistics::entries, "Constraints held now.")
      .def_readonly("evictions", &CompilerCacheStatistics::evictions,
                    "Constraints dropped, least recently used first.");

  py::class_<Compiler>(
      m, "Compiler",
      "Compiles grammars against one tokenizer and keeps the last `max_entries` "
      "constraints, keyed by source, options and tokenizer: the same request compiles "
      "once. Thread-safe; compiles release the GIL.")
      .def(py::init([](const Tokenizer& tokenizer, const std::string& engine,
                       std::size_t build_threads, const Limits& limits, std::size_t max_entries) {
             return Compiler(tokenizer, {{engine_of(engine), build_threads, limits}, max_entries});
           }),
           py::arg("tokenizer"), py::kw_only(), py::arg("engine") = "auto",
           py::arg("build_threads") = 0, py::arg("limits") = Limits{}, py::arg("max_entries") = 64)
      .def("compile", py::overload_cast<const Grammar&>(&Compiler::compile), py::arg("grammar"),
           py::call_guard<py::gil_scoped_release>(),
           "The constraint of a Grammar (from the cache when it was compiled before).")
      .def(
          "compile_json_schema",
          [](Compiler& compiler, const std::string& schema, const std::string& whitespace,
             bool lenient, const std::string& property_order, const std::string& draft,
             bool assert_format, const py::object& documents, const std::string& name) {
            const JsonOptions options =
                json_options(whitespace, lenient, property_order, draft, assert_format, documents);
            py::gil_scoped_release release;
            return compiler.compile_json_schema(schema, options, name);
          },
          py::arg("schema"), py::kw_only(), py::arg("whitespace") = "default",
          py::arg("lenient") = false, py::arg("property_order") = "schema",
          py::arg("draft") = "2020-12", py::arg("assert_format") = true,
          py::arg("documents") = py::none(), py::arg("name") = "<schema>",
          "The constraint of a JSON Schema (text); options as Grammar.from_source.")
      .def(
          "compile_lark",
          [](Compiler& compiler, const std::string& grammar, const std::string& start,
             const std::string& policy, std::vector<std::string> skippable,
             const std::string& postlex, const std::string& name) {
            const GrammarOptions options =
                grammar_options(start, policy, std::move(skippable), postlex);
            py::gil_scoped_release release;
            return compiler.compile_lark(grammar, options, name);
          },
          py::arg("grammar"), py::kw_only(), py::arg("start") = "start", py::arg("policy") = "glr",
          py::arg("skippable") = std::vector<std::string>{}, py::arg("postlex") = "none",
          py::arg("name") = "<grammar>",
          "The constraint of a Lark grammar (text); options as Grammar.from_source.")
      .def("compile_regex", &Compiler::compile_regex, py::arg("pattern"),
           py::call_guard<py::gil_scoped_release>(),
           "The constraint whose texts are exactly the matches of a regex (Python re "
           "syntax).")
      .def(
          "compile_any_json",
          [](Compiler& compiler, const std::string& whitespace) {
            const JsonOptions options = json_options(whitespace, false);
            py::gil_scoped_release release;
            return compiler.compile_any_json(options);
          },
          py::kw_only(), py::arg("whitespace") = "default", "The constraint of any JSON value.")
      .def_property_readonly("cache_statistics", &Compiler::cache_statistics,
                             "Hits, misses, entries and evictions of the cache.")
      .def("clear_cache", &Compiler::clear_cache, "Drops every cached constraint.")
      .def_property_readonly("tokenizer", &Compiler::tokenizer,
                             "The tokenizer it compiles against.");

  py::class_<Constraint>(
      m, "Constraint",
      "A grammar compiled against a tokenizer: immutable, shared by every Matcher "
      "(every request) that uses it. Picklable (its artifact and its tokenizer).")
      .def_static(
          "compile",
          [](const Grammar& grammar, const Tokenizer& tokenizer, const std::string& engine,
             std::size_t build_threads, const Limits& limits) {
            const CompileOptions compile{engine_of(engine), build_threads, limits};
            py::gil_scoped_release release;
            return Constraint::compile(grammar, tokenizer, compile);
          },
          py::arg("grammar"), py::arg("tokenizer"), py::kw_only(), py::arg("engine") = "auto",
          py::arg("build_threads") = 0, py::arg("limits") = Limits{},
          "Compiles a Grammar against `tokenizer` with an engine ('auto': the fastest that "
          "takes the grammar; engine_names()). Releases the GIL.")
      .def_static(
          "from_lark",
          [](const std::string& grammar, const Tokenizer& tokenizer, const std::string& start,
             const std::string& policy, std::vector<std::string> skippable,
             const std::string& postlex, const std::string& engine, std::size_t build_threads,
             const std::string& name, const Limits& limits) {
            const GrammarOptions options =
                grammar_options(start, policy, std::move(skippable), postlex);
            py::gil_scoped_release release;
            return Constraint::from_lark(grammar, tokenizer, options,
                                         {engine_of(engine), build_threads, limits}, name);
          },
          py::arg("grammar"), py::arg("tokenizer"), py::kw_only(), py::arg("start") = "start",
          py::arg("policy") = "glr", py::arg("skippable") = std::vector<std::string>{},
          py::arg("postlex") = "none", py::arg("engine") = "auto", py::arg("build_threads") = 0,
          py::arg("name") = "<grammar>", py::arg("limits") = Limits{},
          "Compiles a Lark grammar (text); see Grammar.from_source for its options and "
          "Constraint.compile for the engine.")
      .def_static(
          "from_json_schema",
          [](const std::string& schema, const Tokenizer& tokenizer, const std::string& whitespace,
             bool lenient, const std::string& property_order, const std::string& draft,
             bool assert_format, const py::object& documents, const std::string& engine,
             std::size_t build_threads, const std::string& name, const Limits& limits) {
            const JsonOptions options =
                json_options(whitespace, lenient, property_order, draft, assert_format, documents);
            py::gil_scoped_release release;
            return Constraint::from_json_schema(schema, tokenizer, options,
                                                {engine_of(engine), build_threads, limits}, name);
          },
          py::arg("schema"), py::arg("tokenizer"), py::kw_only(), py::arg("whitespace") = "default",
          py::arg("lenient") = false, py::arg("property_order") = "schema",
          py::arg("draft") = "2020-12", py::arg("assert_format") = true,
          py::arg("documents") = py::none(), py::arg("engine") = "auto",
          py::arg("build_threads") = 0, py::arg("name") = "<schema>", py::arg("limits") = Limits{},
          "Compiles a JSON Schema (text); see Grammar.from_source for its options and "
          "Constraint.compile for the engine.")
      .def_static(
          "any_json",
          [](const Tokenizer& tokenizer, const std::string& whitespace, const std::string& engine,
             const Limits& limits) {
            const JsonOptions options = json_options(whitespace, false);
            py::gil_scoped_release release;
            return Constraint::any_json(tokenizer, options, {engine_of(engine), 0, limits});
          },
          py::arg("tokenizer"), py::kw_only(), py::arg("whitespace") = "default",
          py::arg("engine") = "auto", py::arg("limits") = Limits{},
          "Compiles the grammar of any JSON value.")
      .def_static(
          "from_regex",
          [](const std::string& pattern, const Tokenizer& tokenizer, const std::string& engine,
             const Limits& limits) {
            py::gil_scoped_release release;
            return Constraint::from_regex(pattern, tokenizer, {engine_of(engine), 0, limits});
          },
          py::arg("pattern"), py::arg("tokenizer"), py::kw_only(), py::arg("engine") = "auto",
          py::arg("limits") = Limits{},
          "Compiles a regex (Python re syntax): the texts are its matches.")
      .def_static(
          "from_structural_tag",
          [](const py::object& tag, const Tokenizer& tokenizer, const std::string& whitespace,
             const std::string& engine, std::size_t build_threads, const std::string& name,
             const Limits& limits) {
            const std::string text =
                py::isinstance<py::str>(tag)
                    ? tag.cast<std::string>()
                    : py::module_::import("json").attr("dumps")(tag).cast<std::string>();
            const JsonOptions options = json_options(whitespace, false);
            py::gil_scoped_release release;
            return Constraint::from_structural_tag(
                text, tokenizer, options, {engine_of(engine), build_threads, limits}, name);
          },
          py::arg("tag"), py::arg("tokenizer"), py::kw_only(), py::arg("whitespace") = "default",
          py::arg("engine") = "auto", py::arg("build_threads") = 0,
          py::arg("name") = "<structural_tag>", py::arg("limits") = Limits{},
          "Compiles a structural tag (XGrammar's shape, as JSON text or a dict): free text, and "
          "after each trigger a tag's begin, content and end.")
      .def("save", &Constraint::save, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
           "Writes the compiled constraint to a file (Constraint.load reads it in "
           "milliseconds).")
      .def_static("load", &Constraint::load, py::arg("path"), py::arg("tokenizer"), py::kw_only(),
                  py::arg("limits") = Limits{}, py::call_guard<py::gil_scoped_release>(),
                  "A constraint Constraint.save wrote, for the same tokenizer (refused otherwise).")
      .def(
          "serialize",
          [](const Constraint& c) {
            std::string bytes;
            {
              py::gil_scoped_release release;
              bytes = c.serialize();
            }
            return py::bytes(bytes);
          },
          "The bytes save() writes, in memory.")
      .def_static(
          "deserialize",
          [](const py::bytes& data, const Tokenizer& tokenizer, const Limits& limits) {
            const std::string bytes(data);
            py::gil_scoped_release release;
            return Constraint::deserialize(bytes, tokenizer, limits);
          },
          py::arg("data"), py::arg("tokenizer"), py::kw_only(), py::arg("limits") = Limits{},
          "The constraint Constraint.serialize gave, for the same tokenizer.")
      // Pickled as its artifact and its tokenizer (pickled in turn), so that a constraint
      // reaches another process (a serving engine's workers) without compiling again.
      .def(py::pickle(
          [](const Constraint& c) {
            return py::make_tuple(py::bytes(c.serialize()), py::cast(c.tokenizer()),
                                  py::cast(c.limits()));
          },
          [](const py::tuple& state) {
            if (state.size() != 3)
              throw Error("not a pickled glrmask.Constraint", ErrorCode::kInvalidArgument);
            return Constraint::deserialize(std::string(state[0].cast<py::bytes>()),
                                           state[1].cast<Tokenizer>(), state[2].cast<Limits>());
          }))
      .def_property_readonly("limits", &Constraint::limits,
                             "The budgets it was compiled with, which its matchers use.")
      .def_property_readonly("grammar", &Constraint::grammar, "The grammar it was compiled from.")
      .def_property_readonly("warnings", &Constraint::warnings,
                             "What the front end compiled, but not as written.")
      .def_property_readonly(
          "engine", [](const Constraint& c) { return std::string(engine_name(c.engine())); },
          "The name of the engine that computes its masks.")
      .def_property_readonly("tokenizer", &Constraint::tokenizer,
                             "The tokenizer it was compiled against.")
      .def_property_readonly("description", &Constraint::description,
                             "One line: the grammar, the engine and the tokenizer.")
      .def("__repr__",
           [](const Constraint& c) { return "<glrmask.Constraint " + c.description() + ">"; });

  py::class_<Matcher> matcher_class(
      m, "Matcher",
      "One sequence's state under a constraint: fills the next token's bitmask and "
      "accepts the sampled token. `max_rollback` tokens can be undone; `stop_token_ids` "
      "replace the tokenizer's stop ids for this request; with "
      "`terminate_without_stop_token` the text ends as soon as nothing may follow. One "
      "thread at a time.");
  matcher_class
      .def(py::init([](const Constraint& constraint, std::size_t max_rollback,
                       std::optional<std::vector<std::int32_t>> stop_token_ids,
                       bool terminate_without_stop_token) {
             MatcherOptions options;
             options.max_rollback = max_rollback;
             if (stop_token_ids) options.stop_ids = std::move(*stop_token_ids);
             options.terminate_without_stop_token = terminate_without_stop_token;
             return Matcher(constraint, options);
           }),
           py::arg("constraint"), py::kw_only(), py::arg("max_rollback") = 1024,
           py::arg("stop_token_ids") = py::none(), py::arg("terminate_without_stop_token") = false)
      .def(
          "accept_tokens",
          [](Matcher& matcher, const std::vector<std::int32_t>& tokens) {
            return matcher.accept_tokens(tokens);
          },
          py::arg("tokens"), py::call_guard<py::gil_scoped_release>(),
          "Accepts the tokens in order: True when all were; False, with the state as before "
          "the call, when one was refused.")
      .def(
          "validate_tokens",
          [](const Matcher& matcher, const std::vector<std::int32_t>& tokens) {
            return matcher.validate_tokens(tokens);
          },
          py::arg("tokens"), py::call_guard<py::gil_scoped_release>(),
          "How many of the tokens, from the first, would be accepted one after another; the "
          "state does not change (speculative decoding's drafts).")
      .def_property_readonly(
          "stop_token_ids",
          [](const Matcher& matcher) {
            const auto ids = matcher.stop_ids();
            return std::vector<std::int32_t>(ids.begin(), ids.end());
          },
          "The ids that end this matcher's text.")
      .def("commit_token", &Matcher::commit_token, py::arg("token"),
           "As accept_token, but a refusal raises RejectionError with the byte offset, the "
           "token and the terminals that were expected.")
      .def(
          "accept_bytes",
          [](Matcher& matcher, const py::bytes& bytes) {
            return matcher.accept_bytes(std::string(bytes));
          },
          "Advances over bytes (not tokens); False, with the state unchanged, when refused.")
      .def(
          "accept_string",
          [](Matcher& matcher, const std::string& text) { return matcher.accept_bytes(text); },
          "accept_bytes of the string's UTF-8.")
      .def(
          "commit_bytes",
          [](Matcher& matcher, const py::bytes& bytes) {
            matcher.commit_bytes(std::string(bytes));
          },
          "As accept_bytes, but a refusal raises RejectionError.")
      .def("rollback", &Matcher::rollback, py::arg("steps") = 1,
           py::call_guard<py::gil_scoped_release>(),
           "Undoes the last `steps` accepts (each accept_token, accept_bytes or commit is "
           "one).")
      .def_property_readonly("rollback_capacity", &Matcher::rollback_capacity,
                             "How many accepts rollback() can undo now.")
      .def("reset", &Matcher::reset, "Back to the empty text.")
      .def("clone", &Matcher::clone, "An independent copy of the state (the constraint is shared).")
      .def("fork", &Matcher::clone, "The same as clone(): an independent copy of the state.")
      .def("is_accepting", &Matcher::is_accepting,
           "The text so far is complete: a stop id may come now.")
      .def_property_readonly("byte_offset", &Matcher::byte_offset, "Bytes of the text so far.")
      .def_property_readonly("bitmask_words", &Matcher::bitmask_words,
                             "The int32 words of one bitmask row.")
      .def(
          "find_jump_forward_bytes",
          [](Matcher& matcher) { return py::bytes(matcher.find_jump_forward_string()); },
          "The bytes every continuation starts with (empty when the next byte is not "
          "forced).")
      .def(
          "find_jump_forward_string",
          [](Matcher& matcher) {
            // Decoded leniently: the forced bytes may end inside a UTF-8 character.
            const std::string forced = matcher.find_jump_forward_string();
            return py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(
                forced.data(), static_cast<py::ssize_t>(forced.size()), "replace"));
          },
          "find_jump_forward_bytes decoded as UTF-8 (a partial character replaced).")
      .def("find_jump_forward_tokens", &Matcher::find_jump_forward_tokens,
           "The forced bytes as tokens of the tokenizer (its encoder's), for jump-forward "
           "decoding.");

  // fill_next_token_bitmask, accept_token and is_terminated: hot_methods.h.
  add_hot_methods(matcher_class);

  m.def(
      "fill_next_token_bitmasks",
      [](const std::vector<Matcher*>& matchers, py::object bitmask,
         std::optional<std::vector<py::ssize_t>> indices) {
        py::array array = bitmask_array(std::move(bitmask));
        if (array.ndim() != 2)
          throw Error("the bitmask must be [batch, words]", ErrorCode::kInvalidArgument);
        const auto rows = static_cast<std::size_t>(rows_of(array));
        // Row r of the bitmask is filled by rows[r] (none: left as it is).
        std::vector<Matcher*> by_row;
        if (indices) {
          if (indices->size() != matchers.size())
            throw Error("fill_next_token_bitmasks: " + std::to_string(matchers.size()) +
                            " matchers but " + std::to_string(indices->size()) + " indices",
                        ErrorCode::kInvalidArgument);
          by_row.assign(rows, nullptr);
          for (std::size_t i = 0; i < matchers.size(); ++i) {
            const py::ssize_t row = (*indices)[i];
            if (row < 0 || static_cast<std::size_t>(row) >= rows)
              throw Error("index " + std::to_string(row) + " is out of range (" +
                              std::to_string(rows) + " rows)",
                          ErrorCode::kInvalidArgument);
            if (by_row[static_cast<std::size_t>(row)] != nullptr)
              throw Error("row " + std::to_string(row) + " appears twice in the indices",
                          ErrorCode::kInvalidArgument);
            by_row[static_cast<std::size_t>(row)] = matchers[i];
          }
        } else {
          if (rows < matchers.size())
            throw Error("the bitmask has " + std::to_string(rows) + " rows for " +
                            std::to_string(matchers.size()) + " matchers",
                        ErrorCode::kInvalidArgument);
          by_row = matchers;
        }
        const auto words = static_cast<std::size_t>(words_of(array));
        std::span<std::int32_t> all(static_cast<std::int32_t*>(array.mutable_data()),
                                    by_row.size() * words);
        py::gil_scoped_release release;
        fill_next_token_bitmasks(by_row, all, words);
      },
      py::arg("matchers"), py::arg("bitmask"), py::kw_only(), py::arg("indices") = py::none(),
      "Fills row i of `bitmask` ([rows, words] int32) with matchers[i]'s mask, or row "
      "indices[i] with `indices`; the rows are computed in parallel with the GIL "
      "released. A matcher may appear once.");

  m.def(
      "apply_token_bitmask_inplace",
      [](const py::object& logits, const py::object& bitmask, std::size_t vocab_size,
         const std::vector<std::int64_t>& indices) {
        const LogitsView view = logits_view(logits);
        const py::array words = bitmask_array(bitmask, /*writable=*/false);
        const BitmaskView mask{static_cast<const std::int32_t*>(words.data()),
                               static_cast<std::size_t>(rows_of(words)),
                               static_cast<std::size_t>(words_of(words))};
        py::gil_scoped_release release;
        apply_token_bitmask(view, mask, indices, vocab_size);
      },
      py::arg("logits"), py::arg("bitmask"), py::kw_only(), py::arg("vocab_size") = 0,
      py::arg("indices") = std::vector<std::int64_t>{},
      "Logits (numpy, or a CPU torch tensor) set to -inf where the bitmask's bit is clear.");

  m.def(
      "allow_only",
      [](py::object bitmask, py::ssize_t index, const std::vector<std::int64_t>& token_ids) {
        py::array array = bitmask_array(std::move(bitmask));
        const std::span<std::int32_t> row = row_of(array, index);
        std::fill(row.begin(), row.end(), 0);
        for (const std::int64_t id : token_ids) {
          if (id < 0 || static_cast<std::size_t>(id) >= 32 * row.size())
            throw Error("token id " + std::to_string(id) + " is past the bitmask's " +
                            std::to_string(32 * row.size()) + " bits",
                        ErrorCode::kInvalidArgument);
          const auto bit = static_cast<std::uint32_t>(id);
          row[bit / 32] = static_cast<std::int32_t>(static_cast<std::uint32_t>(row[bit / 32]) |
                                                    (1u << (bit % 32)));
        }
      },
      py::arg("bitmask"), py::arg("index"), py::arg("token_ids"),
      "Row `index` of the bitmask allows exactly `token_ids`.");

  m.def(
      "reset_token_bitmask",
      [](py::object bitmask) {
        py::array array = bitmask_array(std::move(bitmask));
        auto* data = static_cast<std::int32_t*>(array.mutable_data());
        std::fill(data, data + array.size(), -1);
      },
      py::arg("bitmask"), "Every bit set: every token allowed.");

  m.def(
      "batch_accept_token",
      [](const std::vector<Matcher*>& matchers, const std::vector<std::int32_t>& tokens) {
        if (matchers.size() != tokens.size())
          throw Error("batch_accept_token: " + std::to_string(matchers.size()) + " matchers but " +
                          std::to_string(tokens.size()) + " tokens",
                      ErrorCode::kInvalidArgument);
        std::vector<bool> accepted(matchers.size());
        for (std::size_t i = 0; i < matchers.size(); ++i)
          accepted[i] = matchers[i]->accept_token(tokens[i]);
        return accepted;
      },
      py::arg("matchers"), py::arg("tokens"), py::call_guard<py::gil_scoped_release>(),
      "matchers[i].accept_token(tokens[i]) for every i; the results as a list.");

  m.def(
      "cache_dir", [] { return Tokenizer::cache_dir().string(); },
      "Where glrmask looks for the tokenizers its setup fetched (GLRMASK_CACHE, else the "
      "user's cache folder).");
}
