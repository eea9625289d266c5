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

JsonOptions json_options(const std::string& whitespace, bool lenient,
                         const std::string& property_order = "schema") {
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

  py::class_<Tokenizer>(m, "Tokenizer")
      .def_static(
          "load",
          [](const std::string& name_or_path, std::vector<std::int32_t> stop_ids,
             std::size_t vocab_size) {
            py::gil_scoped_release release;
            return Tokenizer::load(name_or_path, TokenizerOptions{std::move(stop_ids), vocab_size});
          },
          py::arg("name_or_path"), py::arg("stop_ids") = std::vector<std::int32_t>{}, py::kw_only(),
          py::arg("vocab_size") = 0)
      .def_static(
          "from_tokenizer_json",
          [](const std::string& text, std::vector<std::int32_t> stop_ids, std::size_t vocab_size,
             const std::string& name, const std::string& config) {
            py::gil_scoped_release release;
            return Tokenizer::from_json(text, TokenizerOptions{std::move(stop_ids), vocab_size},
                                        name, config);
          },
          py::arg("text"), py::kw_only(), py::arg("stop_ids") = std::vector<std::int32_t>{},
          py::arg("vocab_size") = 0, py::arg("name") = "<tokenizer.json>", py::arg("config") = "")
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
          py::arg("vocab_size") = 0)
      .def("serialize", [](const Tokenizer& t) { return py::bytes(t.serialize()); })
      .def_static(
          "deserialize",
          [](const py::bytes& data) {
            const std::string bytes(data);
            py::gil_scoped_release release;
            return Tokenizer::deserialize(bytes);
          },
          py::arg("data"))
      .def(py::pickle([](const Tokenizer& t) { return py::make_tuple(py::bytes(t.serialize())); },
                      [](const py::tuple& state) {
                        if (state.size() != 1)
                          throw Error("not a pickled glrmask.Tokenizer",
                                      ErrorCode::kInvalidArgument);
                        return Tokenizer::deserialize(std::string(state[0].cast<py::bytes>()));
                      }))
      .def_property_readonly("vocab_size", &Tokenizer::vocab_size)
      .def_property_readonly("bitmask_words", &Tokenizer::bitmask_words)
      .def_property_readonly("stop_ids",
                             [](const Tokenizer& t) {
                               const auto ids = t.stop_ids();
                               return std::vector<std::int32_t>(ids.begin(), ids.end());
                             })
      .def("is_special", &Tokenizer::is_special)
      .def("token_bytes", [](const Tokenizer& t,
                             std::int32_t id) { return py::bytes(std::string(t.token_bytes(id))); })
      .def("decode", [](const Tokenizer& t,
                        const std::vector<std::int32_t>& ids) { return py::bytes(t.decode(ids)); })
      .def_property_readonly("can_encode", &Tokenizer::can_encode)
      .def("encode", &Tokenizer::encode, py::arg("text"), py::call_guard<py::gil_scoped_release>())
      .def("__repr__",
           [](const Tokenizer& t) { return "<glrmask.Tokenizer " + t.description() + ">"; });

  const Limits defaults;
  py::class_<Limits>(m, "Limits")
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
      .def_readwrite("max_lexer_states", &Limits::max_lexer_states)
      .def_readwrite("max_terminal_dwa_forks", &Limits::max_terminal_dwa_forks)
      .def_readwrite("max_parser_dwa_states", &Limits::max_parser_dwa_states)
      .def_readwrite("max_parser_dwa_transitions", &Limits::max_parser_dwa_transitions)
      .def_readwrite("max_compile_memory_mib", &Limits::max_compile_memory_mib)
      .def_readwrite("max_step_work", &Limits::max_step_work)
      .def_readwrite("max_commit_seconds", &Limits::max_commit_seconds)
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

  py::class_<Warning>(m, "Warning")
      .def_readonly("message", &Warning::message)
      .def_property_readonly("location", [](const Warning& w) { return location_dict(w.where); })
      .def("__str__", [](const Warning& w) { return w.message; })
      .def("__repr__", [](const Warning& w) { return "<glrmask.Warning " + w.message + ">"; });

  py::class_<Grammar>(m, "Grammar")
      .def_static(
          "from_source",
          [](const std::string& format, const std::string& text, const std::string& name,
             const std::string& start, const std::string& policy,
             std::vector<std::string> skippable, const std::string& postlex,
             const std::string& whitespace, bool lenient, const std::string& property_order) {
            const SourceOptions options{
                grammar_options(start, policy, std::move(skippable), postlex),
                json_options(whitespace, lenient, property_order)};
            py::gil_scoped_release release;
            return Grammar::from_source(format, text, options, name);
          },
          py::arg("format"), py::arg("text"), py::kw_only(), py::arg("name") = "",
          py::arg("start") = "start", py::arg("policy") = "glr",
          py::arg("skippable") = std::vector<std::string>{}, py::arg("postlex") = "none",
          py::arg("whitespace") = "default", py::arg("lenient") = false,
          py::arg("property_order") = "schema")
      .def_property_readonly("format", &Grammar::format)
      .def_property_readonly("name", &Grammar::name)
      .def_property_readonly("warnings", &Grammar::warnings)
      .def_property_readonly("num_terminals", &Grammar::num_terminals)
      .def_property_readonly("num_nonterminals", &Grammar::num_nonterminals)
      .def_property_readonly("num_rules", &Grammar::num_rules)
      .def_property_readonly("description", &Grammar::description)
      .def("to_lark", &Grammar::to_lark)
      .def("__str__", &Grammar::to_lark)
      .def("__repr__",
           [](const Grammar& g) { return "<glrmask.Grammar " + g.description() + ">"; });

  py::class_<CompilerCacheStatistics>(m, "CompilerCacheStatistics")
      .def_readonly("hits", &CompilerCacheStatistics::hits)
      .def_readonly("misses", &CompilerCacheStatistics::misses)
      .def_readonly("entries", &CompilerCacheStatistics::entries)
      .def_readonly("evictions", &CompilerCacheStatistics::evictions);

  py::class_<Compiler>(m, "Compiler")
      .def(py::init([](const Tokenizer& tokenizer, const std::string& engine,
                       std::size_t build_threads, const Limits& limits, std::size_t max_entries) {
             return Compiler(tokenizer, {{engine_of(engine), build_threads, limits}, max_entries});
           }),
           py::arg("tokenizer"), py::kw_only(), py::arg("engine") = "auto",
           py::arg("build_threads") = 0, py::arg("limits") = Limits{}, py::arg("max_entries") = 64)
      .def("compile", py::overload_cast<const Grammar&>(&Compiler::compile), py::arg("grammar"),
           py::call_guard<py::gil_scoped_release>())
      .def(
          "compile_json_schema",
          [](Compiler& compiler, const std::string& schema, const std::string& whitespace,
             bool lenient, const std::string& property_order, const std::string& name) {
            const JsonOptions options = json_options(whitespace, lenient, property_order);
            py::gil_scoped_release release;
            return compiler.compile_json_schema(schema, options, name);
          },
          py::arg("schema"), py::kw_only(), py::arg("whitespace") = "default",
          py::arg("lenient") = false, py::arg("property_order") = "schema",
          py::arg("name") = "<schema>")
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
          py::arg("name") = "<grammar>")
      .def("compile_regex", &Compiler::compile_regex, py::arg("pattern"),
           py::call_guard<py::gil_scoped_release>())
      .def(
          "compile_any_json",
          [](Compiler& compiler, const std::string& whitespace) {
            const JsonOptions options = json_options(whitespace, false);
            py::gil_scoped_release release;
            return compiler.compile_any_json(options);
          },
          py::kw_only(), py::arg("whitespace") = "default")
      .def_property_readonly("cache_statistics", &Compiler::cache_statistics)
      .def("clear_cache", &Compiler::clear_cache)
      .def_property_readonly("tokenizer", &Compiler::tokenizer);

  py::class_<Constraint>(m, "Constraint")
      .def_static(
          "compile",
          [](const Grammar& grammar, const Tokenizer& tokenizer, const std::string& engine,
             std::size_t build_threads, const Limits& limits) {
            const CompileOptions compile{engine_of(engine), build_threads, limits};
            py::gil_scoped_release release;
            return Constraint::compile(grammar, tokenizer, compile);
          },
          py::arg("grammar"), py::arg("tokenizer"), py::kw_only(), py::arg("engine") = "auto",
          py::arg("build_threads") = 0, py::arg("limits") = Limits{})
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
          py::arg("name") = "<grammar>", py::arg("limits") = Limits{})
      .def_static(
          "from_json_schema",
          [](const std::string& schema, const Tokenizer& tokenizer, const std::string& whitespace,
             bool lenient, const std::string& property_order, const std::string& engine,
             std::size_t build_threads, const std::string& name, const Limits& limits) {
            const JsonOptions options = json_options(whitespace, lenient, property_order);
            py::gil_scoped_release release;
            return Constraint::from_json_schema(schema, tokenizer, options,
                                                {engine_of(engine), build_threads, limits}, name);
          },
          py::arg("schema"), py::arg("tokenizer"), py::kw_only(), py::arg("whitespace") = "default",
          py::arg("lenient") = false, py::arg("property_order") = "schema",
          py::arg("engine") = "auto", py::arg("build_threads") = 0, py::arg("name") = "<schema>",
          py::arg("limits") = Limits{})
      .def_static(
          "any_json",
          [](const Tokenizer& tokenizer, const std::string& whitespace, const std::string& engine,
             const Limits& limits) {
            const JsonOptions options = json_options(whitespace, false);
            py::gil_scoped_release release;
            return Constraint::any_json(tokenizer, options, {engine_of(engine), 0, limits});
          },
          py::arg("tokenizer"), py::kw_only(), py::arg("whitespace") = "default",
          py::arg("engine") = "auto", py::arg("limits") = Limits{})
      .def_static(
          "from_regex",
          [](const std::string& pattern, const Tokenizer& tokenizer, const std::string& engine,
             const Limits& limits) {
            py::gil_scoped_release release;
            return Constraint::from_regex(pattern, tokenizer, {engine_of(engine), 0, limits});
          },
          py::arg("pattern"), py::arg("tokenizer"), py::kw_only(), py::arg("engine") = "auto",
          py::arg("limits") = Limits{})
      .def("save", &Constraint::save, py::arg("path"), py::call_guard<py::gil_scoped_release>())
      .def_static("load", &Constraint::load, py::arg("path"), py::arg("tokenizer"), py::kw_only(),
                  py::arg("limits") = Limits{}, py::call_guard<py::gil_scoped_release>())
      .def("serialize",
           [](const Constraint& c) {
             std::string bytes;
             {
               py::gil_scoped_release release;
               bytes = c.serialize();
             }
             return py::bytes(bytes);
           })
      .def_static(
          "deserialize",
          [](const py::bytes& data, const Tokenizer& tokenizer, const Limits& limits) {
            const std::string bytes(data);
            py::gil_scoped_release release;
            return Constraint::deserialize(bytes, tokenizer, limits);
          },
          py::arg("data"), py::arg("tokenizer"), py::kw_only(), py::arg("limits") = Limits{})
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
      .def_property_readonly("limits", &Constraint::limits)
      .def_property_readonly("grammar", &Constraint::grammar)
      .def_property_readonly("warnings", &Constraint::warnings)
      .def_property_readonly(
          "engine", [](const Constraint& c) { return std::string(engine_name(c.engine())); })
      .def_property_readonly("tokenizer", &Constraint::tokenizer)
      .def_property_readonly("description", &Constraint::description)
      .def("__repr__",
           [](const Constraint& c) { return "<glrmask.Constraint " + c.description() + ">"; });

  py::class_<Matcher> matcher_class(m, "Matcher");
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
          py::arg("tokens"))
      .def(
          "validate_tokens",
          [](const Matcher& matcher, const std::vector<std::int32_t>& tokens) {
            return matcher.validate_tokens(tokens);
          },
          py::arg("tokens"))
      .def_property_readonly("stop_token_ids",
                             [](const Matcher& matcher) {
                               const auto ids = matcher.stop_ids();
                               return std::vector<std::int32_t>(ids.begin(), ids.end());
                             })
      .def("commit_token", &Matcher::commit_token, py::arg("token"))
      .def("accept_bytes",
           [](Matcher& matcher, const py::bytes& bytes) {
             return matcher.accept_bytes(std::string(bytes));
           })
      .def("accept_string",
           [](Matcher& matcher, const std::string& text) { return matcher.accept_bytes(text); })
      .def("commit_bytes", [](Matcher& matcher,
                              const py::bytes& bytes) { matcher.commit_bytes(std::string(bytes)); })
      .def("rollback", &Matcher::rollback, py::arg("steps") = 1)
      .def_property_readonly("rollback_capacity", &Matcher::rollback_capacity)
      .def("reset", &Matcher::reset)
      .def("clone", &Matcher::clone)
      .def("fork", &Matcher::clone, "The same as clone(): an independent copy of the state.")
      .def("is_accepting", &Matcher::is_accepting)
      .def_property_readonly("byte_offset", &Matcher::byte_offset)
      .def_property_readonly("bitmask_words", &Matcher::bitmask_words)
      .def("find_jump_forward_bytes",
           [](Matcher& matcher) { return py::bytes(matcher.find_jump_forward_string()); })
      .def("find_jump_forward_string",
           [](Matcher& matcher) {
             // Decoded leniently: the forced bytes may end inside a UTF-8 character.
             const std::string forced = matcher.find_jump_forward_string();
             return py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(
                 forced.data(), static_cast<py::ssize_t>(forced.size()), "replace"));
           })
      .def("find_jump_forward_tokens", &Matcher::find_jump_forward_tokens);

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
      py::arg("matchers"), py::arg("bitmask"), py::kw_only(), py::arg("indices") = py::none());

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
      py::arg("matchers"), py::arg("tokens"));

  m.def(
      "cache_dir", [] { return Tokenizer::cache_dir().string(); },
      "Where glrmask looks for the tokenizers its setup fetched (GLRMASK_CACHE, else the "
      "user's cache folder).");
}
