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

#include "glrmask/glrmask.hpp"

namespace py = pybind11;
using namespace glrmask;

namespace {

// The int32 array behind `object`, without a copy: a numpy array, or a CPU torch tensor through
// its numpy() view. A conversion that copied would lose what is written, so anything else (another
// dtype, a strided view, a read-only array) is refused.
py::array bitmask_array(py::object object) {
  if (!py::isinstance<py::array>(object) && py::hasattr(object, "numpy"))
    object = object.attr("numpy")();
  if (!py::isinstance<py::array>(object))
    throw Error("the bitmask must be a numpy array or a CPU torch tensor",
                ErrorCode::kInvalidArgument);
  py::array array = py::reinterpret_borrow<py::array>(object);
  if (!array.dtype().is(py::dtype::of<std::int32_t>()))
    throw Error("the bitmask must hold int32 words", ErrorCode::kInvalidArgument);
  if (!(array.flags() & py::array::c_style) || !array.writeable())
    throw Error("the bitmask must be C-contiguous and writable", ErrorCode::kInvalidArgument);
  if (array.ndim() != 1 && array.ndim() != 2)
    throw Error("the bitmask must have one or two dimensions", ErrorCode::kInvalidArgument);
  return array;
}

// The words of row `index` of a bitmask of one dimension (one row) or two ([rows, words]).
std::span<std::int32_t> row_of(py::array& array, py::ssize_t index) {
  const py::ssize_t rows = array.ndim() == 2 ? array.shape(0) : 1;
  const py::ssize_t words = array.shape(array.ndim() - 1);
  if (index < 0 || index >= rows)
    throw Error("bitmask row " + std::to_string(index) + " is out of range (" +
                    std::to_string(rows) + " rows)",
                ErrorCode::kInvalidArgument);
  auto* data = static_cast<std::int32_t*>(array.mutable_data());
  return {data + index * words, static_cast<std::size_t>(words)};
}

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

py::dict location_dict(const ErrorLocation& where) {
  py::dict d;
  d["file"] = where.file;
  d["line"] = where.line;
  d["column"] = where.column;
  d["json_pointer"] = where.json_pointer;
  d["byte_offset"] = where.byte_offset;
  d["token"] = where.token;
  return d;
}

}  // namespace

PYBIND11_MODULE(_glrmask, m) {
  m.doc() = "glrmask: exact grammar-constrained decoding (the native part; import glrmask)";

  // Errors reach Python as glrmask.Error / glrmask.RejectionError (classes defined in
  // __init__.py and handed over by _set_error_classes), raised as Class(message, details) where
  // `details` holds the code and the place; the classes expose them as attributes.
  static py::object* error_class = new py::object();      // leaked: outlives the interpreter's
  static py::object* rejection_class = new py::object();  // module teardown
  m.def("_set_error_classes", [](py::object error, py::object rejection) {
    *error_class = std::move(error);
    *rejection_class = std::move(rejection);
  });
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer) std::rethrow_exception(pointer);
    } catch (const RejectionError& e) {
      py::dict details = location_dict(e.where());
      details["code"] = error_code_name(e.code());
      details["expected"] = e.expected();
      PyObject* type = *rejection_class ? rejection_class->ptr() : PyExc_ValueError;
      PyErr_SetObject(type, py::make_tuple(e.what(), details).ptr());
    } catch (const Error& e) {
      py::dict details = location_dict(e.where());
      details["code"] = error_code_name(e.code());
      PyObject* type = *error_class ? error_class->ptr() : PyExc_RuntimeError;
      PyErr_SetObject(type, py::make_tuple(e.what(), details).ptr());
    }
  });

  py::class_<Tokenizer>(m, "Tokenizer")
      .def_static("load", &Tokenizer::load, py::arg("name_or_path"),
                  py::arg("stop_ids") = std::vector<std::int32_t>{})
      .def_static(
          "from_vocab",
          [](const std::vector<py::bytes>& vocab, const std::string& type,
             std::vector<std::int32_t> stop_ids, std::vector<std::int32_t> special_ids) {
            std::vector<std::string> strings;
            strings.reserve(vocab.size());
            for (const py::bytes& token : vocab) strings.emplace_back(token);
            return Tokenizer::from_vocab(strings, vocab_type(type), std::move(stop_ids),
                                         std::move(special_ids));
          },
          py::arg("vocab"), py::arg("vocab_type"), py::arg("stop_ids"),
          py::arg("special_ids") = std::vector<std::int32_t>{})
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
      .def_readwrite("max_commit_seconds", &Limits::max_commit_seconds);

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
      .def_property_readonly("limits", &Constraint::limits)
      .def_property_readonly("grammar", &Constraint::grammar)
      .def_property_readonly("warnings", &Constraint::warnings)
      .def_property_readonly(
          "engine", [](const Constraint& c) { return std::string(engine_name(c.engine())); })
      .def_property_readonly("tokenizer", &Constraint::tokenizer)
      .def_property_readonly("description", &Constraint::description)
      .def("__repr__",
           [](const Constraint& c) { return "<glrmask.Constraint " + c.description() + ">"; });

  py::class_<Matcher>(m, "Matcher")
      .def(py::init([](const Constraint& constraint, std::size_t max_rollback) {
             MatcherOptions options;
             options.max_rollback = max_rollback;
             return Matcher(constraint, options);
           }),
           py::arg("constraint"), py::kw_only(), py::arg("max_rollback") = 1024)
      .def(
          "fill_next_token_bitmask",
          [](Matcher& matcher, py::object bitmask, py::ssize_t index) {
            py::array array = bitmask_array(std::move(bitmask));
            const std::span<std::int32_t> row = row_of(array, index);
            py::gil_scoped_release release;
            matcher.fill_next_token_bitmask(row);
          },
          py::arg("bitmask"), py::arg("index") = 0)
      .def("accept_token", &Matcher::accept_token, py::arg("token"))
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
      .def("is_accepting", &Matcher::is_accepting)
      .def("is_terminated", &Matcher::is_terminated)
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

  m.def(
      "fill_next_token_bitmasks",
      [](const std::vector<Matcher*>& matchers, py::object bitmask) {
        py::array array = bitmask_array(std::move(bitmask));
        if (array.ndim() != 2 || array.shape(0) < static_cast<py::ssize_t>(matchers.size()))
          throw Error("the bitmask must be [batch, words] with a row per matcher",
                      ErrorCode::kInvalidArgument);
        const auto words = static_cast<std::size_t>(array.shape(1));
        std::span<std::int32_t> all(static_cast<std::int32_t*>(array.mutable_data()),
                                    matchers.size() * words);
        py::gil_scoped_release release;
        fill_next_token_bitmasks(matchers, all, words);
      },
      py::arg("matchers"), py::arg("bitmask"));
}
