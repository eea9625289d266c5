/* glrmask's C ABI (C11): the same tokenizer, constraint and matcher as the C++ API
 * (glrmask/glrmask.hpp), behind opaque handles.
 *
 * Every function that can fail returns a glrmask_status: GLRMASK_OK (0), or the code of the
 * failure (the numbers of glrmask::ErrorCode). The failure's message and its place (file, line,
 * column, JSON pointer, byte offset, token id) are then kept for the calling thread until its next
 * failing call: glrmask_last_error() and glrmask_last_error_location(). No function aborts or
 * throws across the ABI. Strings are byte strings with explicit lengths unless documented as
 * NUL-terminated (paths, names). A refused token is not a failure of accept_token (it sets
 * *accepted to false); commit_token reports it as GLRMASK_REJECTED.
 *
 * Handles are created by glrmask_*_new / _load / _from_* and released by the matching _free (NULL
 * is allowed). A tokenizer or constraint may be freed while constraints or matchers made from it
 * live on: they keep what they need. Tokenizers and constraints may be used from any number of
 * threads; a matcher from one thread at a time.
 */
#ifndef GLRMASK_GLRMASK_H_
#define GLRMASK_GLRMASK_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glrmask/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define GLRMASK_EXPORT __attribute__((visibility("default")))
#else
#define GLRMASK_EXPORT
#endif
/* Seen from C++, every function is noexcept: nothing is thrown across the ABI. */
#ifdef __cplusplus
#define GLRMASK_NOEXCEPT noexcept
#else
#define GLRMASK_NOEXCEPT
#endif

typedef enum glrmask_status {
  GLRMASK_OK = 0,
  GLRMASK_INVALID_ARGUMENT = 1,
  GLRMASK_GRAMMAR = 2,
  GLRMASK_SCHEMA = 3,
  GLRMASK_TOKENIZER = 4,
  GLRMASK_ARTIFACT = 5,
  GLRMASK_REJECTED = 6,
  GLRMASK_LIMIT = 7,
  GLRMASK_IO = 8,
  GLRMASK_STATE = 9,
  GLRMASK_UNSUPPORTED = 10,
  GLRMASK_INTERNAL = 11,
} glrmask_status;

typedef enum glrmask_vocab_type {
  GLRMASK_VOCAB_RAW = 0,
  GLRMASK_VOCAB_BYTE_FALLBACK = 1,
  GLRMASK_VOCAB_BYTE_LEVEL = 2,
} glrmask_vocab_type;

/* The mask engines of glrmask/engines.def: GLRMASK_ENGINE_AUTO, _WFA, _SPANNER, _ORACLE, _LAZY
 * (nothing built ahead; walks made when first reached), _STAGED (lazy until the wfa's automata
 * are built in the background). glrmask_engine_name() and glrmask_engine_from_name() convert. */
typedef enum glrmask_engine {
#define GLRMASK_ENGINE(cpp_name, c_name, name, value, summary) GLRMASK_ENGINE_##c_name = value,
#include "glrmask/engines.def"
#undef GLRMASK_ENGINE
} glrmask_engine;

typedef enum glrmask_policy { GLRMASK_POLICY_GLR = 0, GLRMASK_POLICY_LARK = 1 } glrmask_policy;
typedef enum glrmask_postlex {
  GLRMASK_POSTLEX_NONE = 0,
  GLRMASK_POSTLEX_PYTHON = 1
} glrmask_postlex;
typedef enum glrmask_json_whitespace {
  GLRMASK_JSON_DEFAULT = 0,
  GLRMASK_JSON_COMPACT = 1,
  GLRMASK_JSON_FLEXIBLE = 2,
} glrmask_json_whitespace;

/* Options of a Lark grammar; a zeroed struct (or NULL) means the defaults: start rule "start",
 * policy GLR, nothing skippable, no post-lexer. */
typedef struct glrmask_grammar_options {
  const char* start; /* NUL-terminated; NULL: "start" */
  glrmask_policy policy;
  const char* const* skippable; /* terminal names, NUL-terminated */
  size_t num_skippable;
  glrmask_postlex postlex;
} glrmask_grammar_options;

typedef enum glrmask_json_property_order {
  GLRMASK_JSON_SCHEMA_ORDER = 0, /* an object's properties in the order the schema declares */
  GLRMASK_JSON_ANY_ORDER = 1,    /* in any order, each at most once */
} glrmask_json_property_order;

/* The draft of a schema whose root has no `$schema` (0: 2020-12). Drafts 4 to 7 ignore the
 * keywords beside a `$ref`; 2019-09 and 2020-12 apply them. */
typedef enum glrmask_json_draft {
  GLRMASK_JSON_DRAFT_2020_12 = 0,
  GLRMASK_JSON_DRAFT_2019_09 = 1,
  GLRMASK_JSON_DRAFT_7 = 2,
  GLRMASK_JSON_DRAFT_6 = 3,
  GLRMASK_JSON_DRAFT_4 = 4,
} glrmask_json_draft;

/* A document a schema's `$ref` may name by URI (nothing is ever fetched). */
typedef struct glrmask_json_document {
  const char* uri;  /* NUL-terminated, e.g. "https://example.com/address.json" */
  const char* text; /* NUL-terminated JSON text */
} glrmask_json_document;

/* Options of a JSON constraint; zeroed (or NULL): default whitespace, strict, schema order,
 * draft 2020-12, `format` asserted, no registered documents. */
typedef struct glrmask_json_options {
  glrmask_json_whitespace whitespace;
  bool lenient;
  glrmask_json_property_order property_order;
  glrmask_json_draft default_draft;
  bool format_annotation; /* true: `format` is an annotation (ignored); false: asserted */
  const glrmask_json_document* documents; /* copied during the call */
  size_t num_documents;
} glrmask_json_options;

/* Budgets (glrmask::Limits in constraint.hpp, docs/limits.md): exceeding one fails with
 * GLRMASK_LIMIT naming the field. A field of 0 means no limit, so start from
 * glrmask_limits_default() and change what you need. */
typedef struct glrmask_limits {
  size_t max_lexer_states;
  size_t max_terminal_dwa_forks;
  size_t max_parser_dwa_states;
  size_t max_parser_dwa_transitions;
  size_t max_compile_memory_mib;
  uint64_t max_step_work;
  double max_commit_seconds;
} glrmask_limits;

/* The defaults of every budget. */
GLRMASK_EXPORT glrmask_limits glrmask_limits_default(void) GLRMASK_NOEXCEPT;

/* Zeroed (or NULL): the fastest engine that supports the grammar, every core for the build, the
 * default budgets (limits NULL). */
typedef struct glrmask_compile_options {
  glrmask_engine engine;
  size_t build_threads;
  const glrmask_limits* limits;
} glrmask_compile_options;

/* Where the calling thread's last failure applies; fields that do not apply are "" or -1 / 0. */
typedef struct glrmask_error_location {
  const char* file;
  uint32_t line;
  uint32_t column;
  const char* json_pointer;
  int64_t byte_offset;
  int64_t token;
} glrmask_error_location;

typedef struct glrmask_tokenizer glrmask_tokenizer;
typedef struct glrmask_grammar glrmask_grammar;
typedef struct glrmask_constraint glrmask_constraint;
typedef struct glrmask_matcher glrmask_matcher;

/* ---- the library ---- */
/* The loaded library's version ("0.2.0"); GLRMASK_VERSION_STRING is the headers'. */
GLRMASK_EXPORT const char* glrmask_version(void) GLRMASK_NOEXCEPT;
/* An engine's name ("wfa"); "?" for a value that is no engine. */
GLRMASK_EXPORT const char* glrmask_engine_name(glrmask_engine engine) GLRMASK_NOEXCEPT;
/* The engine called `name` (NUL-terminated); GLRMASK_INVALID_ARGUMENT for an unknown name. */
GLRMASK_EXPORT glrmask_status glrmask_engine_from_name(const char* name,
                                                       glrmask_engine* out) GLRMASK_NOEXCEPT;

/* ---- errors ---- */
/* The message of the calling thread's last failure ("" if none); valid until its next failure. */
GLRMASK_EXPORT const char* glrmask_last_error(void) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_last_error_code(void) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_error_location glrmask_last_error_location(void) GLRMASK_NOEXCEPT;
/* For a GLRMASK_REJECTED failure: the terminals that were expected, as one string of names
 * separated by single spaces ("" when none or another failure). */
GLRMASK_EXPORT const char* glrmask_last_error_expected(void) GLRMASK_NOEXCEPT;
/* Frees memory glrmask returned (strings, id arrays). */
GLRMASK_EXPORT void glrmask_free(void* memory) GLRMASK_NOEXCEPT;

/* ---- tokenizers ---- */
/* A tokenizer.json path or a setup-cache name; stop_ids may be NULL (then the EOS of
 * tokenizer_config.json). */
GLRMASK_EXPORT glrmask_status glrmask_tokenizer_load(const char* name_or_path,
                                                     const int32_t* stop_ids, size_t num_stop_ids,
                                                     glrmask_tokenizer** out) GLRMASK_NOEXCEPT;
/* Token i is tokens[i] (lengths[i] bytes), spelled as `type` says. */
GLRMASK_EXPORT glrmask_status glrmask_tokenizer_from_vocab(
    const char* const* tokens, const size_t* lengths, size_t num_tokens, glrmask_vocab_type type,
    const int32_t* stop_ids, size_t num_stop_ids, const int32_t* special_ids,
    size_t num_special_ids, glrmask_tokenizer** out) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT void glrmask_tokenizer_free(glrmask_tokenizer* tokenizer) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT size_t glrmask_tokenizer_vocab_size(const glrmask_tokenizer* tokenizer)
    GLRMASK_NOEXCEPT;
/* The ids that end a text (*ids points into the tokenizer); the first is the primary EOS. */
GLRMASK_EXPORT void glrmask_tokenizer_stop_ids(const glrmask_tokenizer* tokenizer,
                                               const int32_t** ids, size_t* count) GLRMASK_NOEXCEPT;
/* 32-bit words of one bitmask row: ceil(vocab_size / 32). */
GLRMASK_EXPORT size_t glrmask_tokenizer_bitmask_words(const glrmask_tokenizer* tokenizer)
    GLRMASK_NOEXCEPT;
/* Text -> ids (only for a tokenizer loaded from tokenizer.json); *ids is freed by glrmask_free. */
GLRMASK_EXPORT glrmask_status glrmask_tokenizer_encode(const glrmask_tokenizer* tokenizer,
                                                       const char* text, size_t length,
                                                       int32_t** ids,
                                                       size_t* num_ids) GLRMASK_NOEXCEPT;
/* The bytes of token `id` (a view into the tokenizer, not NUL-terminated). */
GLRMASK_EXPORT glrmask_status glrmask_tokenizer_token_bytes(const glrmask_tokenizer* tokenizer,
                                                            int32_t id, const char** bytes,
                                                            size_t* length) GLRMASK_NOEXCEPT;

/* ---- grammars ---- */
/* `text` in `format` ("lark", "json_schema", "regex", "any_json", "gbnf", "structural_tag": the
 * front ends the library knows, glrmask::grammar_formats()). `name` (may be NULL) names it in
 * messages; `options` and `json` (may be NULL: the defaults) are read by the formats they concern.
 */
GLRMASK_EXPORT glrmask_status glrmask_grammar_from_source(const char* format, const char* text,
                                                          size_t length, const char* name,
                                                          const glrmask_grammar_options* options,
                                                          const glrmask_json_options* json,
                                                          glrmask_grammar** out) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT void glrmask_grammar_free(glrmask_grammar* grammar) GLRMASK_NOEXCEPT;
/* The grammar every engine compiles, as Lark text; *text (not NUL-terminated) is freed by
 * glrmask_free. */
GLRMASK_EXPORT glrmask_status glrmask_grammar_to_lark(const glrmask_grammar* grammar, char** text,
                                                      size_t* length) GLRMASK_NOEXCEPT;
/* The front end's warnings (a lenient schema's ignored keywords, unreachable rules): how many,
 * and the i-th as one NUL-terminated line (NULL past the end), valid while the grammar lives. */
GLRMASK_EXPORT size_t glrmask_grammar_warning_count(const glrmask_grammar* grammar)
    GLRMASK_NOEXCEPT;
GLRMASK_EXPORT const char* glrmask_grammar_warning(const glrmask_grammar* grammar,
                                                   size_t index) GLRMASK_NOEXCEPT;

/* ---- constraints ---- */
/* `grammar` compiled against `tokenizer` (the grammar may be freed afterwards). */
GLRMASK_EXPORT glrmask_status glrmask_constraint_compile(const glrmask_grammar* grammar,
                                                         const glrmask_tokenizer* tokenizer,
                                                         const glrmask_compile_options* compile,
                                                         glrmask_constraint** out) GLRMASK_NOEXCEPT;
/* `name` (NUL-terminated, may be NULL) names the grammar in messages. */
GLRMASK_EXPORT glrmask_status glrmask_constraint_from_lark(
    const char* grammar, size_t length, const char* name, const glrmask_tokenizer* tokenizer,
    const glrmask_grammar_options* options, const glrmask_compile_options* compile,
    glrmask_constraint** out) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_constraint_from_json_schema(
    const char* schema, size_t length, const char* name, const glrmask_tokenizer* tokenizer,
    const glrmask_json_options* options, const glrmask_compile_options* compile,
    glrmask_constraint** out) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_constraint_any_json(
    const glrmask_tokenizer* tokenizer, const glrmask_json_options* options,
    const glrmask_compile_options* compile, glrmask_constraint** out) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_constraint_from_regex(
    const char* pattern, size_t length, const glrmask_tokenizer* tokenizer,
    const glrmask_compile_options* compile, glrmask_constraint** out) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_constraint_save(const glrmask_constraint* constraint,
                                                      const char* path) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_constraint_load(const char* path,
                                                      const glrmask_tokenizer* tokenizer,
                                                      glrmask_constraint** out) GLRMASK_NOEXCEPT;
/* The same with the runtime budgets its matchers run under (NULL: the defaults). */
GLRMASK_EXPORT glrmask_status glrmask_constraint_load_with_limits(
    const char* path, const glrmask_tokenizer* tokenizer, const glrmask_limits* limits,
    glrmask_constraint** out) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_engine glrmask_constraint_engine(const glrmask_constraint* constraint)
    GLRMASK_NOEXCEPT;
/* The warnings of the grammar it was compiled from, as glrmask_grammar_warning_count/_warning. */
GLRMASK_EXPORT size_t glrmask_constraint_warning_count(const glrmask_constraint* constraint)
    GLRMASK_NOEXCEPT;
GLRMASK_EXPORT const char* glrmask_constraint_warning(const glrmask_constraint* constraint,
                                                      size_t index) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT void glrmask_constraint_free(glrmask_constraint* constraint) GLRMASK_NOEXCEPT;

/* ---- matchers ---- */
/* max_rollback: how many accepted steps rollback can undo (0: the default, 1024). */
GLRMASK_EXPORT glrmask_status glrmask_matcher_new(const glrmask_constraint* constraint,
                                                  size_t max_rollback,
                                                  glrmask_matcher** out) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_matcher_clone(const glrmask_matcher* matcher,
                                                    glrmask_matcher** out) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT void glrmask_matcher_free(glrmask_matcher* matcher) GLRMASK_NOEXCEPT;
/* Writes the next-token mask into row[0 .. row_words); words past the vocabulary are zeroed.
 * row_words must be at least glrmask_tokenizer_bitmask_words(). */
GLRMASK_EXPORT glrmask_status glrmask_matcher_fill_next_token_bitmask(
    glrmask_matcher* matcher, int32_t* row, size_t row_words) GLRMASK_NOEXCEPT;
/* Fills row i of `bitmask` (num_matchers rows of row_words words) with matchers[i]'s mask, in
 * parallel; a NULL matcher leaves its row untouched. */
GLRMASK_EXPORT glrmask_status glrmask_fill_next_token_bitmasks(glrmask_matcher* const* matchers,
                                                               size_t num_matchers,
                                                               int32_t* bitmask,
                                                               size_t row_words) GLRMASK_NOEXCEPT;
/* *accepted is false (and nothing changes) when the mask does not allow the token. */
GLRMASK_EXPORT glrmask_status glrmask_matcher_accept_token(glrmask_matcher* matcher, int32_t token,
                                                           bool* accepted) GLRMASK_NOEXCEPT;
/* As accept_token, but a refusal is GLRMASK_REJECTED with the byte offset and expectations. */
GLRMASK_EXPORT glrmask_status glrmask_matcher_commit_token(glrmask_matcher* matcher,
                                                           int32_t token) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_matcher_accept_bytes(glrmask_matcher* matcher,
                                                           const char* bytes, size_t length,
                                                           bool* accepted) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_matcher_rollback(glrmask_matcher* matcher,
                                                       size_t steps) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT glrmask_status glrmask_matcher_reset(glrmask_matcher* matcher) GLRMASK_NOEXCEPT;
/* Whether the text so far is a complete sentence. May fail (a budget: GLRMASK_LIMIT). */
GLRMASK_EXPORT glrmask_status glrmask_matcher_accepting(const glrmask_matcher* matcher,
                                                        bool* accepting) GLRMASK_NOEXCEPT;
/* The same as a bool: false on a failure too (then recorded as by a failing call). */
GLRMASK_EXPORT bool glrmask_matcher_is_accepting(const glrmask_matcher* matcher) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT bool glrmask_matcher_is_terminated(const glrmask_matcher* matcher) GLRMASK_NOEXCEPT;
GLRMASK_EXPORT uint64_t glrmask_matcher_byte_offset(const glrmask_matcher* matcher)
    GLRMASK_NOEXCEPT;
/* The forced continuation; *bytes (not NUL-terminated) is freed by glrmask_free. */
GLRMASK_EXPORT glrmask_status glrmask_matcher_jump_forward_string(glrmask_matcher* matcher,
                                                                  char** bytes,
                                                                  size_t* length) GLRMASK_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* GLRMASK_GLRMASK_H_ */
