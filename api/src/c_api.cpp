// The C ABI (glrmask/glrmask.h) over the C++ facade: each handle wraps the C++ object, each call
// runs inside guarded(), which turns every exception into a status code and the calling thread's
// last-error record. Nothing throws across the ABI.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "glrmask/glrmask.h"
#include "glrmask/glrmask.hpp"
#include "glrmask/version.hpp"

struct glrmask_tokenizer {
  glrmask::Tokenizer tokenizer;
};
struct glrmask_grammar {
  glrmask::Grammar grammar;
};
struct glrmask_constraint {
  glrmask::Constraint constraint;
};
struct glrmask_matcher {
  glrmask::Matcher matcher;
};

namespace {

struct LastError {
  std::string message;
  glrmask_status code = GLRMASK_OK;
  std::string file;
  std::string json_pointer;
  glrmask::ErrorLocation where;
  std::string expected;
};

LastError& last_error() {
  thread_local LastError error;
  return error;
}

glrmask_status record(const glrmask::Error& error) {
  LastError& last = last_error();
  last.message = error.what();
  last.code = static_cast<glrmask_status>(error.code());
  last.where = error.where();
  last.file = error.where().file;
  last.json_pointer = error.where().json_pointer;
  last.expected.clear();
  if (const auto* rejection = dynamic_cast<const glrmask::RejectionError*>(&error)) {
    for (const std::string& name : rejection->expected()) {
      if (!last.expected.empty()) last.expected += ' ';
      last.expected += name;
    }
  }
  return last.code;
}

glrmask_status record(glrmask_status code, const std::string& message) {
  return record(glrmask::Error(message, static_cast<glrmask::ErrorCode>(code)));
}

template <typename Body>
glrmask_status guarded(Body&& body) {
  try {
    body();
    return GLRMASK_OK;
  } catch (const glrmask::Error& e) {
    return record(e);
  } catch (const std::bad_alloc&) {
    return record(GLRMASK_LIMIT, "out of memory");
  } catch (const std::exception& e) {
    return record(GLRMASK_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return record(GLRMASK_INTERNAL, "internal error: an unknown exception");
  }
}

// The value of `body`, or `fallback` when it throws (the failure recorded as by a failing call):
// for the entry points whose result is not a status.
template <typename T, typename Body>
T guarded_value(T fallback, Body&& body) {
  T result = fallback;
  const glrmask_status status = guarded([&] { result = body(); });
  return status == GLRMASK_OK ? result : fallback;
}

// The integer a C caller stored as an enum: C takes any int there, while C++ may not even load an
// enum whose value lies outside its enumerators' range (UBSan: "not a valid value for type"), so
// the value is read through its bytes before it is checked.
template <typename Enum>
long long c_enum_value(const Enum& value) {
  std::underlying_type_t<Enum> raw;
  static_assert(sizeof raw == sizeof value);
  std::memcpy(&raw, &value, sizeof raw);
  return static_cast<long long>(raw);
}

void require(bool condition, const char* what) {
  if (!condition) throw glrmask::Error(what, glrmask::ErrorCode::kInvalidArgument);
}

std::vector<std::int32_t> ids_of(const int32_t* ids, size_t count, const char* what) {
  require(ids != nullptr || count == 0, what);
  return std::vector<std::int32_t>(ids, ids + count);
}

glrmask::GrammarOptions grammar_options(const glrmask_grammar_options* options) {
  glrmask::GrammarOptions result;
  if (options == nullptr) return result;
  if (options->start != nullptr) result.start = options->start;
  const long long policy = c_enum_value(options->policy);
  require(policy == GLRMASK_POLICY_GLR || policy == GLRMASK_POLICY_LARK,
          "glrmask_grammar_options.policy is neither GLRMASK_POLICY_GLR nor GLRMASK_POLICY_LARK");
  result.policy = policy == GLRMASK_POLICY_LARK ? glrmask::ConflictPolicy::kLark
                                                : glrmask::ConflictPolicy::kGlr;
  require(options->skippable != nullptr || options->num_skippable == 0,
          "glrmask_grammar_options.skippable is NULL");
  for (size_t i = 0; i < options->num_skippable; ++i) {
    require(options->skippable[i] != nullptr, "a skippable terminal name is NULL");
    result.skippable.emplace_back(options->skippable[i]);
  }
  const long long postlex = c_enum_value(options->postlex);
  require(postlex == GLRMASK_POSTLEX_NONE || postlex == GLRMASK_POSTLEX_PYTHON,
          "glrmask_grammar_options.postlex is not a known post-lexer");
  result.postlex =
      postlex == GLRMASK_POSTLEX_PYTHON ? glrmask::PostLexer::kPython : glrmask::PostLexer::kNone;
  return result;
}

glrmask::JsonOptions json_options(const glrmask_json_options* options) {
  glrmask::JsonOptions result;
  if (options == nullptr) return result;
  const long long whitespace = c_enum_value(options->whitespace);
  require(whitespace >= GLRMASK_JSON_DEFAULT && whitespace <= GLRMASK_JSON_FLEXIBLE,
          "glrmask_json_options.whitespace is not a known mode");
  result.whitespace = static_cast<glrmask::JsonWhitespace>(whitespace);
  result.lenient = options->lenient;
  const long long order = c_enum_value(options->property_order);
  require(order == GLRMASK_JSON_SCHEMA_ORDER || order == GLRMASK_JSON_ANY_ORDER,
          "glrmask_json_options.property_order is not a known order");
  result.property_order = order == GLRMASK_JSON_ANY_ORDER ? glrmask::JsonPropertyOrder::kAny
                                                          : glrmask::JsonPropertyOrder::kSchema;
  switch (c_enum_value(options->default_draft)) {
    case GLRMASK_JSON_DRAFT_2020_12:
      result.default_draft = glrmask::JsonDraft::k2020_12;
      break;
    case GLRMASK_JSON_DRAFT_2019_09:
      result.default_draft = glrmask::JsonDraft::k2019_09;
      break;
    case GLRMASK_JSON_DRAFT_7:
      result.default_draft = glrmask::JsonDraft::k7;
      break;
    case GLRMASK_JSON_DRAFT_6:
      result.default_draft = glrmask::JsonDraft::k6;
      break;
    case GLRMASK_JSON_DRAFT_4:
      result.default_draft = glrmask::JsonDraft::k4;
      break;
    default:
      require(false, "glrmask_json_options.default_draft is not a known draft");
  }
  result.assert_format = !options->format_annotation;
  require(options->documents != nullptr || options->num_documents == 0,
          "glrmask_json_options.documents is NULL");
  for (size_t i = 0; i < options->num_documents; ++i) {
    const glrmask_json_document& document = options->documents[i];
    const std::string field = "glrmask_json_options.documents[" + std::to_string(i) + "].";
    require(document.uri != nullptr, (field + "uri is NULL").c_str());
    require(document.text != nullptr, (field + "text is NULL").c_str());
    result.documents.push_back({document.uri, document.text});
  }
  return result;
}

glrmask::Limits limits_of(const glrmask_limits* limits) {
  if (limits == nullptr) return {};
  require(limits->max_commit_seconds >= 0, "glrmask_limits.max_commit_seconds is negative");
  return glrmask::Limits{limits->max_lexer_states,       limits->max_terminal_dwa_forks,
                         limits->max_parser_dwa_states,  limits->max_parser_dwa_transitions,
                         limits->max_compile_memory_mib, limits->max_step_work,
                         limits->max_commit_seconds};
}

glrmask::CompileOptions compile_options(const glrmask_compile_options* options) {
  glrmask::CompileOptions result;
  if (options == nullptr) return result;
  const long long engine = c_enum_value(options->engine);
  const auto engines = glrmask::all_engines();
  require(std::any_of(engines.begin(), engines.end(),
                      [&](glrmask::Engine e) { return static_cast<long long>(e) == engine; }),
          "glrmask_compile_options.engine is not a known engine");
  result.engine = static_cast<glrmask::Engine>(engine);
  result.build_threads = options->build_threads;
  result.limits = limits_of(options->limits);
  return result;
}

template <typename T>
T* copy_out(const T* data, size_t count) {
  T* memory = static_cast<T*>(std::malloc(count == 0 ? 1 : count * sizeof(T)));
  if (memory == nullptr) throw std::bad_alloc();
  if (count != 0) std::memcpy(memory, data, count * sizeof(T));
  return memory;
}

}  // namespace

extern "C" {

const char* glrmask_last_error(void) noexcept {
  return last_error().message.c_str();
}

glrmask_status glrmask_last_error_code(void) noexcept {
  return last_error().code;
}

glrmask_error_location glrmask_last_error_location(void) noexcept {
  const LastError& last = last_error();
  glrmask_error_location location;
  location.file = last.file.c_str();
  location.line = last.where.line;
  location.column = last.where.column;
  location.json_pointer = last.json_pointer.c_str();
  location.byte_offset = last.where.byte_offset;
  location.token = last.where.token;
  return location;
}

const char* glrmask_last_error_expected(void) noexcept {
  return last_error().expected.c_str();
}

void glrmask_free(void* memory) noexcept {
  std::free(memory);
}

const char* glrmask_version(void) noexcept {
  return glrmask::version();
}

const char* glrmask_engine_name(glrmask_engine engine) noexcept {
  const long long value = c_enum_value(engine);
  for (const glrmask::Engine known : glrmask::all_engines())
    if (static_cast<long long>(known) == value) return glrmask::engine_name(known);
  return "?";
}

glrmask_status glrmask_engine_from_name(const char* name, glrmask_engine* out) noexcept {
  return guarded([&] {
    require(name != nullptr && out != nullptr, "glrmask_engine_from_name: NULL argument");
    const std::optional<glrmask::Engine> engine = glrmask::engine_from_name(name);
    if (!engine)
      throw glrmask::Error(
          std::string("glrmask_engine_from_name: no engine is called '") + name + "'",
          glrmask::ErrorCode::kInvalidArgument);
    *out = static_cast<glrmask_engine>(*engine);
  });
}

glrmask_status glrmask_tokenizer_load(const char* name_or_path, const int32_t* stop_ids,
                                      size_t num_stop_ids, glrmask_tokenizer** out) noexcept {
  return guarded([&] {
    require(name_or_path != nullptr && out != nullptr, "glrmask_tokenizer_load: NULL argument");
    *out = nullptr;
    *out = new glrmask_tokenizer{glrmask::Tokenizer::load(
        name_or_path, ids_of(stop_ids, num_stop_ids, "glrmask_tokenizer_load: stop_ids is NULL"))};
  });
}

glrmask_status glrmask_tokenizer_from_vocab(const char* const* tokens, const size_t* lengths,
                                            size_t num_tokens, glrmask_vocab_type type,
                                            const int32_t* stop_ids, size_t num_stop_ids,
                                            const int32_t* special_ids, size_t num_special_ids,
                                            glrmask_tokenizer** out) noexcept {
  return guarded([&] {
    require(out != nullptr && (num_tokens == 0 || (tokens != nullptr && lengths != nullptr)),
            "glrmask_tokenizer_from_vocab: NULL argument");
    const long long vocab_type = c_enum_value(type);
    require(vocab_type >= GLRMASK_VOCAB_RAW && vocab_type <= GLRMASK_VOCAB_BYTE_LEVEL,
            "glrmask_tokenizer_from_vocab: unknown vocabulary type");
    *out = nullptr;
    std::vector<std::string> vocab;
    vocab.reserve(num_tokens);
    for (size_t i = 0; i < num_tokens; ++i) {
      require(tokens[i] != nullptr || lengths[i] == 0,
              "glrmask_tokenizer_from_vocab: a NULL token");
      vocab.emplace_back(tokens[i], lengths[i]);
    }
    *out = new glrmask_tokenizer{glrmask::Tokenizer::from_vocab(
        vocab, static_cast<glrmask::VocabType>(vocab_type),
        ids_of(stop_ids, num_stop_ids, "glrmask_tokenizer_from_vocab: stop_ids is NULL"),
        ids_of(special_ids, num_special_ids, "glrmask_tokenizer_from_vocab: special_ids is NULL"))};
  });
}

void glrmask_tokenizer_free(glrmask_tokenizer* tokenizer) noexcept {
  delete tokenizer;
}

size_t glrmask_tokenizer_vocab_size(const glrmask_tokenizer* tokenizer) noexcept {
  return guarded_value<size_t>(
      0, [&] { return tokenizer == nullptr ? 0 : tokenizer->tokenizer.vocab_size(); });
}

void glrmask_tokenizer_stop_ids(const glrmask_tokenizer* tokenizer, const int32_t** ids,
                                size_t* count) noexcept {
  if (ids == nullptr || count == nullptr) return;
  *ids = nullptr;
  *count = 0;
  if (tokenizer == nullptr) return;
  const std::span<const std::int32_t> stops = tokenizer->tokenizer.stop_ids();
  *ids = stops.data();
  *count = stops.size();
}

size_t glrmask_tokenizer_bitmask_words(const glrmask_tokenizer* tokenizer) noexcept {
  return guarded_value<size_t>(
      0, [&] { return tokenizer == nullptr ? 0 : tokenizer->tokenizer.bitmask_words(); });
}

glrmask_status glrmask_tokenizer_encode(const glrmask_tokenizer* tokenizer, const char* text,
                                        size_t length, int32_t** ids, size_t* num_ids) noexcept {
  return guarded([&] {
    require(tokenizer != nullptr && (text != nullptr || length == 0) && ids != nullptr &&
                num_ids != nullptr,
            "glrmask_tokenizer_encode: NULL argument");
    const std::vector<std::int32_t> encoded =
        tokenizer->tokenizer.encode(std::string_view(text, length));
    *ids = copy_out(encoded.data(), encoded.size());
    *num_ids = encoded.size();
  });
}

glrmask_status glrmask_tokenizer_token_bytes(const glrmask_tokenizer* tokenizer, int32_t id,
                                             const char** bytes, size_t* length) noexcept {
  return guarded([&] {
    require(tokenizer != nullptr && bytes != nullptr && length != nullptr,
            "glrmask_tokenizer_token_bytes: NULL argument");
    const std::string_view view = tokenizer->tokenizer.token_bytes(id);
    *bytes = view.data();
    *length = view.size();
  });
}

glrmask_status glrmask_grammar_from_source(const char* format, const char* text, size_t length,
                                           const char* name, const glrmask_grammar_options* options,
                                           const glrmask_json_options* json,
                                           glrmask_grammar** out) noexcept {
  return guarded([&] {
    require(format != nullptr && (text != nullptr || length == 0) && out != nullptr,
            "glrmask_grammar_from_source: NULL argument");
    *out = nullptr;
    *out = new glrmask_grammar{glrmask::Grammar::from_source(
        format, std::string_view(text, length), {grammar_options(options), json_options(json)},
        name != nullptr ? name : "")};
  });
}

void glrmask_grammar_free(glrmask_grammar* grammar) noexcept {
  delete grammar;
}

glrmask_status glrmask_grammar_to_lark(const glrmask_grammar* grammar, char** text,
                                       size_t* length) noexcept {
  return guarded([&] {
    require(grammar != nullptr && text != nullptr && length != nullptr,
            "glrmask_grammar_to_lark: NULL argument");
    const std::string lark = grammar->grammar.to_lark();
    *text = copy_out(lark.data(), lark.size());
    *length = lark.size();
  });
}

size_t glrmask_grammar_warning_count(const glrmask_grammar* grammar) noexcept {
  return grammar == nullptr ? 0 : grammar->grammar.warnings().size();
}

const char* glrmask_grammar_warning(const glrmask_grammar* grammar, size_t index) noexcept {
  if (grammar == nullptr || index >= grammar->grammar.warnings().size()) return nullptr;
  return grammar->grammar.warnings()[index].message.c_str();
}

glrmask_status glrmask_constraint_compile(const glrmask_grammar* grammar,
                                          const glrmask_tokenizer* tokenizer,
                                          const glrmask_compile_options* compile,
                                          glrmask_constraint** out) noexcept {
  return guarded([&] {
    require(grammar != nullptr && tokenizer != nullptr && out != nullptr,
            "glrmask_constraint_compile: NULL argument");
    *out = nullptr;
    *out = new glrmask_constraint{glrmask::Constraint::compile(
        grammar->grammar, tokenizer->tokenizer, compile_options(compile))};
  });
}

glrmask_status glrmask_constraint_from_lark(const char* grammar, size_t length, const char* name,
                                            const glrmask_tokenizer* tokenizer,
                                            const glrmask_grammar_options* options,
                                            const glrmask_compile_options* compile,
                                            glrmask_constraint** out) noexcept {
  return guarded([&] {
    require((grammar != nullptr || length == 0) && tokenizer != nullptr && out != nullptr,
            "glrmask_constraint_from_lark: NULL argument");
    *out = nullptr;
    *out = new glrmask_constraint{glrmask::Constraint::from_lark(
        std::string_view(grammar, length), tokenizer->tokenizer, grammar_options(options),
        compile_options(compile), name != nullptr ? name : "<grammar>")};
  });
}

glrmask_status glrmask_constraint_from_json_schema(const char* schema, size_t length,
                                                   const char* name,
                                                   const glrmask_tokenizer* tokenizer,
                                                   const glrmask_json_options* options,
                                                   const glrmask_compile_options* compile,
                                                   glrmask_constraint** out) noexcept {
  return guarded([&] {
    require((schema != nullptr || length == 0) && tokenizer != nullptr && out != nullptr,
            "glrmask_constraint_from_json_schema: NULL argument");
    *out = nullptr;
    *out = new glrmask_constraint{glrmask::Constraint::from_json_schema(
        std::string_view(schema, length), tokenizer->tokenizer, json_options(options),
        compile_options(compile), name != nullptr ? name : "<schema>")};
  });
}

glrmask_status glrmask_constraint_any_json(const glrmask_tokenizer* tokenizer,
                                           const glrmask_json_options* options,
                                           const glrmask_compile_options* compile,
                                           glrmask_constraint** out) noexcept {
  return guarded([&] {
    require(tokenizer != nullptr && out != nullptr, "glrmask_constraint_any_json: NULL argument");
    *out = nullptr;
    *out = new glrmask_constraint{glrmask::Constraint::any_json(
        tokenizer->tokenizer, json_options(options), compile_options(compile))};
  });
}

glrmask_status glrmask_constraint_from_regex(const char* pattern, size_t length,
                                             const glrmask_tokenizer* tokenizer,
                                             const glrmask_compile_options* compile,
                                             glrmask_constraint** out) noexcept {
  return guarded([&] {
    require((pattern != nullptr || length == 0) && tokenizer != nullptr && out != nullptr,
            "glrmask_constraint_from_regex: NULL argument");
    *out = nullptr;
    *out = new glrmask_constraint{glrmask::Constraint::from_regex(
        std::string_view(pattern, length), tokenizer->tokenizer, compile_options(compile))};
  });
}

glrmask_status glrmask_constraint_save(const glrmask_constraint* constraint,
                                       const char* path) noexcept {
  return guarded([&] {
    require(constraint != nullptr && path != nullptr, "glrmask_constraint_save: NULL argument");
    constraint->constraint.save(path);
  });
}

glrmask_status glrmask_constraint_load(const char* path, const glrmask_tokenizer* tokenizer,
                                       glrmask_constraint** out) noexcept {
  return glrmask_constraint_load_with_limits(path, tokenizer, nullptr, out);
}

glrmask_status glrmask_constraint_load_with_limits(const char* path,
                                                   const glrmask_tokenizer* tokenizer,
                                                   const glrmask_limits* limits,
                                                   glrmask_constraint** out) noexcept {
  return guarded([&] {
    require(path != nullptr && tokenizer != nullptr && out != nullptr,
            "glrmask_constraint_load: NULL argument");
    *out = nullptr;
    *out = new glrmask_constraint{
        glrmask::Constraint::load(path, tokenizer->tokenizer, limits_of(limits))};
  });
}

glrmask_limits glrmask_limits_default(void) noexcept {
  const glrmask::Limits defaults;
  return glrmask_limits{defaults.max_lexer_states,       defaults.max_terminal_dwa_forks,
                        defaults.max_parser_dwa_states,  defaults.max_parser_dwa_transitions,
                        defaults.max_compile_memory_mib, defaults.max_step_work,
                        defaults.max_commit_seconds};
}

glrmask_engine glrmask_constraint_engine(const glrmask_constraint* constraint) noexcept {
  return guarded_value(GLRMASK_ENGINE_AUTO, [&] {
    return constraint == nullptr ? GLRMASK_ENGINE_AUTO
                                 : static_cast<glrmask_engine>(constraint->constraint.engine());
  });
}

size_t glrmask_constraint_warning_count(const glrmask_constraint* constraint) noexcept {
  return constraint == nullptr ? 0 : constraint->constraint.warnings().size();
}

const char* glrmask_constraint_warning(const glrmask_constraint* constraint,
                                       size_t index) noexcept {
  if (constraint == nullptr || index >= constraint->constraint.warnings().size()) return nullptr;
  return constraint->constraint.warnings()[index].message.c_str();
}

void glrmask_constraint_free(glrmask_constraint* constraint) noexcept {
  delete constraint;
}

glrmask_status glrmask_matcher_new(const glrmask_constraint* constraint, size_t max_rollback,
                                   glrmask_matcher** out) noexcept {
  return guarded([&] {
    require(constraint != nullptr && out != nullptr, "glrmask_matcher_new: NULL argument");
    *out = nullptr;
    glrmask::MatcherOptions options;
    if (max_rollback != 0) options.max_rollback = max_rollback;
    *out = new glrmask_matcher{glrmask::Matcher(constraint->constraint, options)};
  });
}

glrmask_status glrmask_matcher_clone(const glrmask_matcher* matcher,
                                     glrmask_matcher** out) noexcept {
  return guarded([&] {
    require(matcher != nullptr && out != nullptr, "glrmask_matcher_clone: NULL argument");
    *out = nullptr;
    *out = new glrmask_matcher{matcher->matcher.clone()};
  });
}

void glrmask_matcher_free(glrmask_matcher* matcher) noexcept {
  delete matcher;
}

glrmask_status glrmask_matcher_fill_next_token_bitmask(glrmask_matcher* matcher, int32_t* row,
                                                       size_t row_words) noexcept {
  return guarded([&] {
    require(matcher != nullptr && row != nullptr,
            "glrmask_matcher_fill_next_token_bitmask: NULL argument");
    matcher->matcher.fill_next_token_bitmask(std::span<std::int32_t>(row, row_words));
  });
}

glrmask_status glrmask_fill_next_token_bitmasks(glrmask_matcher* const* matchers,
                                                size_t num_matchers, int32_t* bitmask,
                                                size_t row_words) noexcept {
  return guarded([&] {
    require((matchers != nullptr && bitmask != nullptr) || num_matchers == 0,
            "glrmask_fill_next_token_bitmasks: NULL argument");
    std::vector<glrmask::Matcher*> pointers(num_matchers);
    for (size_t i = 0; i < num_matchers; ++i)
      pointers[i] = matchers[i] == nullptr ? nullptr : &matchers[i]->matcher;
    glrmask::fill_next_token_bitmasks(
        pointers, std::span<std::int32_t>(bitmask, num_matchers * row_words), row_words);
  });
}

glrmask_status glrmask_matcher_accept_token(glrmask_matcher* matcher, int32_t token,
                                            bool* accepted) noexcept {
  return guarded([&] {
    require(matcher != nullptr && accepted != nullptr,
            "glrmask_matcher_accept_token: NULL argument");
    *accepted = matcher->matcher.accept_token(token);
  });
}

glrmask_status glrmask_matcher_commit_token(glrmask_matcher* matcher, int32_t token) noexcept {
  return guarded([&] {
    require(matcher != nullptr, "glrmask_matcher_commit_token: NULL argument");
    matcher->matcher.commit_token(token);
  });
}

glrmask_status glrmask_matcher_accept_bytes(glrmask_matcher* matcher, const char* bytes,
                                            size_t length, bool* accepted) noexcept {
  return guarded([&] {
    require(matcher != nullptr && (bytes != nullptr || length == 0) && accepted != nullptr,
            "glrmask_matcher_accept_bytes: NULL argument");
    *accepted = matcher->matcher.accept_bytes(std::string_view(bytes, length));
  });
}

glrmask_status glrmask_matcher_rollback(glrmask_matcher* matcher, size_t steps) noexcept {
  return guarded([&] {
    require(matcher != nullptr, "glrmask_matcher_rollback: NULL argument");
    matcher->matcher.rollback(steps);
  });
}

glrmask_status glrmask_matcher_reset(glrmask_matcher* matcher) noexcept {
  return guarded([&] {
    require(matcher != nullptr, "glrmask_matcher_reset: NULL argument");
    matcher->matcher.reset();
  });
}

glrmask_status glrmask_matcher_accepting(const glrmask_matcher* matcher, bool* accepting) noexcept {
  return guarded([&] {
    require(matcher != nullptr && accepting != nullptr, "glrmask_matcher_accepting: NULL argument");
    *accepting = matcher->matcher.is_accepting();
  });
}

bool glrmask_matcher_is_accepting(const glrmask_matcher* matcher) noexcept {
  return guarded_value(false,
                       [&] { return matcher != nullptr && matcher->matcher.is_accepting(); });
}

bool glrmask_matcher_is_terminated(const glrmask_matcher* matcher) noexcept {
  return guarded_value(false,
                       [&] { return matcher != nullptr && matcher->matcher.is_terminated(); });
}

uint64_t glrmask_matcher_byte_offset(const glrmask_matcher* matcher) noexcept {
  return guarded_value<std::uint64_t>(
      0, [&] { return matcher == nullptr ? 0 : matcher->matcher.byte_offset(); });
}

glrmask_status glrmask_matcher_jump_forward_string(glrmask_matcher* matcher, char** bytes,
                                                   size_t* length) noexcept {
  return guarded([&] {
    require(matcher != nullptr && bytes != nullptr && length != nullptr,
            "glrmask_matcher_jump_forward_string: NULL argument");
    const std::string forced = matcher->matcher.find_jump_forward_string();
    *bytes = copy_out(forced.data(), forced.size());
    *length = forced.size();
  });
}

}  // extern "C"
