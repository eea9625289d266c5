/* The C ABI (glrmask/glrmask.h), compiled as C11.
 *
 *   c_abi_test
 *       runs the self-checks below (handles, options, typed errors, refusals, batches);
 *   c_abi_test TOKENIZER lark|json_schema FILE TEXT [--policy lark] [--skippable NAME]
 *       teacher-forces TEXT (its tokens, then the stop id) and prints per step
 *       "step token digest" (token -1 at the final stop step), where digest is the mask digest
 *       `glrmask mask --steps` writes (docs/cli.md), so a test can compare the two line by line.
 * Exit code 0 when everything held, 1 otherwise (with the failed check on stderr). */
#include <glrmask/glrmask.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition)                                                            \
  do {                                                                              \
    if (!(condition)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

#define CHECK_OK(call)                                                                        \
  do {                                                                                        \
    glrmask_status status_ = (call);                                                          \
    if (status_ != GLRMASK_OK) {                                                              \
      fprintf(stderr, "%s:%d: %s failed (%d): %s\n", __FILE__, __LINE__, #call, (int)status_, \
              glrmask_last_error());                                                          \
      ++failures;                                                                             \
    }                                                                                         \
  } while (0)

/* The mask digest of docs/cli.md: the sum over words i of word_i * (2i + 1) * 0x9E3779B97F4A7C15,
 * modulo 2^64, words read as unsigned. */
static uint64_t mask_digest(const int32_t* words, size_t count) {
  uint64_t digest = 0;
  for (size_t i = 0; i < count; ++i)
    digest += (uint64_t)(uint32_t)words[i] * ((uint64_t)(2 * i + 1) * 0x9E3779B97F4A7C15ull);
  return digest;
}

static char* read_file(const char* path, size_t* length) {
  FILE* file = fopen(path, "rb");
  if (file == NULL) return NULL;
  size_t capacity = 1 << 16, size = 0;
  char* data = malloc(capacity);
  for (size_t got; (got = fread(data + size, 1, capacity - size, file)) > 0;) {
    size += got;
    if (size == capacity) data = realloc(data, capacity *= 2);
  }
  fclose(file);
  *length = size;
  return data;
}

static int self_checks(void) {
  /* A tokenizer of byte strings: "a", "b", "ab", then the stop id and a special token. */
  const char* tokens[] = {"a", "b", "ab", "</s>", "<pad>"};
  const size_t lengths[] = {1, 1, 2, 4, 5};
  const int32_t stop = 3, pad = 4;
  glrmask_tokenizer* tokenizer = NULL;
  CHECK_OK(glrmask_tokenizer_from_vocab(tokens, lengths, 5, GLRMASK_VOCAB_RAW, &stop, 1, &pad, 1,
                                        &tokenizer));
  CHECK(glrmask_tokenizer_vocab_size(tokenizer) == 5);
  CHECK(glrmask_tokenizer_bitmask_words(tokenizer) == 1);

  /* A stop id out of range: an error that names the token. */
  glrmask_tokenizer* bad = NULL;
  const int32_t far = 9;
  CHECK(glrmask_tokenizer_from_vocab(tokens, lengths, 5, GLRMASK_VOCAB_RAW, &far, 1, NULL, 0,
                                     &bad) == GLRMASK_INVALID_ARGUMENT);
  CHECK(bad == NULL);
  CHECK(glrmask_last_error_location().token == 9);
  CHECK(strstr(glrmask_last_error(), "9") != NULL);

  /* A grammar error names line and column. */
  const char* broken = "start: \"a\"\nx: (\n";
  glrmask_constraint* none = NULL;
  CHECK(glrmask_constraint_from_lark(broken, strlen(broken), "broken.lark", tokenizer, NULL, NULL,
                                     &none) == GLRMASK_GRAMMAR);
  CHECK(none == NULL);
  CHECK(strcmp(glrmask_last_error_location().file, "broken.lark") == 0);
  CHECK(glrmask_last_error_location().line >= 2);
  CHECK(glrmask_last_error_code() == GLRMASK_GRAMMAR);

  /* A schema error names the JSON pointer. */
  const char* schema = "{\"type\": \"object\", \"properties\": {\"x\": {\"type\": 3}}}";
  CHECK(glrmask_constraint_from_json_schema(schema, strlen(schema), "s.json", tokenizer, NULL, NULL,
                                            &none) == GLRMASK_SCHEMA);
  CHECK(strstr(glrmask_last_error_location().json_pointer, "/properties/x") != NULL);

  /* The property order: {"b": 1, "a": 2} is taken only with GLRMASK_JSON_ANY_ORDER; an order
   * the header does not name is refused. A tokenizer of the 256 single bytes spells it. */
  {
    char bytes[256];
    const char* byte_tokens[257];
    size_t byte_lengths[257];
    for (int b = 0; b < 256; ++b) {
      bytes[b] = (char)b;
      byte_tokens[b] = &bytes[b];
      byte_lengths[b] = 1;
    }
    byte_tokens[256] = "<eos>";
    byte_lengths[256] = 5;
    const int32_t eos = 256;
    glrmask_tokenizer* byte_tokenizer = NULL;
    CHECK_OK(glrmask_tokenizer_from_vocab(byte_tokens, byte_lengths, 257, GLRMASK_VOCAB_RAW, &eos,
                                          1, NULL, 0, &byte_tokenizer));
    const char* two =
        "{\"type\": \"object\", \"required\": [\"a\", \"b\"], \"properties\": "
        "{\"a\": {\"type\": \"integer\"}, \"b\": {\"type\": \"integer\"}}}";
    const char* reordered = "{\"b\": 1, \"a\": 2}";
    for (int any = 0; any < 2; ++any) {
      const glrmask_json_options json = {.property_order = any ? GLRMASK_JSON_ANY_ORDER
                                                               : GLRMASK_JSON_SCHEMA_ORDER};
      glrmask_constraint* ordered = NULL;
      CHECK_OK(glrmask_constraint_from_json_schema(two, strlen(two), "two.json", byte_tokenizer,
                                                   &json, NULL, &ordered));
      glrmask_matcher* matcher = NULL;
      CHECK_OK(glrmask_matcher_new(ordered, 0, &matcher));
      bool taken = true;
      CHECK_OK(glrmask_matcher_accept_bytes(matcher, reordered, strlen(reordered), &taken));
      CHECK(taken == (any == 1));
      glrmask_matcher_free(matcher);
      glrmask_constraint_free(ordered);
    }
    const glrmask_json_options unknown = {.property_order = (glrmask_json_property_order)7};
    CHECK(glrmask_constraint_from_json_schema(two, strlen(two), "two.json", byte_tokenizer,
                                              &unknown, NULL, &none) == GLRMASK_INVALID_ARGUMENT);
    CHECK(strstr(glrmask_last_error(), "property_order") != NULL);
    /* Every enum of the header with a value it does not name: refused, never read as one. */
    const glrmask_json_options spaced = {.whitespace = (glrmask_json_whitespace)42};
    CHECK(glrmask_constraint_from_json_schema(two, strlen(two), "two.json", byte_tokenizer, &spaced,
                                              NULL, &none) == GLRMASK_INVALID_ARGUMENT);
    /* A registered document a `$ref` names: without it the schema is refused naming the
     * document, with it the reference is followed. A NULL document field and a draft the header
     * does not name are refused, naming the field. */
    const char* refers =
        "{\"type\": \"array\", \"items\": {\"$ref\": \"https://example.com/small\"}}";
    const glrmask_json_document small = {"https://example.com/small",
                                         "{\"type\": \"integer\", \"maximum\": 5}"};
    CHECK(glrmask_constraint_from_json_schema(refers, strlen(refers), "refers.json", byte_tokenizer,
                                              NULL, NULL, &none) == GLRMASK_SCHEMA);
    CHECK(strstr(glrmask_last_error(), "https://example.com/small") != NULL);
    glrmask_json_options registered = {.documents = &small, .num_documents = 1};
    glrmask_constraint* referring = NULL;
    CHECK_OK(glrmask_constraint_from_json_schema(refers, strlen(refers), "refers.json",
                                                 byte_tokenizer, &registered, NULL, &referring));
    if (referring != NULL) {
      glrmask_matcher* matcher = NULL;
      CHECK_OK(glrmask_matcher_new(referring, 0, &matcher));
      bool taken = false;
      CHECK_OK(glrmask_matcher_accept_bytes(matcher, "[1, 5]", 6, &taken));
      CHECK(taken && glrmask_matcher_is_accepting(matcher));
      CHECK_OK(glrmask_matcher_reset(matcher));
      CHECK_OK(glrmask_matcher_accept_bytes(matcher, "[6]", 3, &taken));
      CHECK(!taken);
      glrmask_matcher_free(matcher);
      glrmask_constraint_free(referring);
    }
    const glrmask_json_document nameless = {NULL, "true"};
    registered.documents = &nameless;
    CHECK(glrmask_constraint_from_json_schema(refers, strlen(refers), "refers.json", byte_tokenizer,
                                              &registered, NULL,
                                              &none) == GLRMASK_INVALID_ARGUMENT);
    CHECK(strstr(glrmask_last_error(), "documents[0].uri") != NULL);
    registered.documents = NULL;
    CHECK(glrmask_constraint_from_json_schema(refers, strlen(refers), "refers.json", byte_tokenizer,
                                              &registered, NULL,
                                              &none) == GLRMASK_INVALID_ARGUMENT);
    CHECK(strstr(glrmask_last_error(), "documents") != NULL);
    const glrmask_json_options drafted = {.default_draft = (glrmask_json_draft)42};
    CHECK(glrmask_constraint_from_json_schema(two, strlen(two), "two.json", byte_tokenizer,
                                              &drafted, NULL, &none) == GLRMASK_INVALID_ARGUMENT);
    CHECK(strstr(glrmask_last_error(), "default_draft") != NULL);
    /* `format` asserted (the default) refuses "x" as a date; as an annotation it is ignored. */
    const char* date = "{\"type\": \"string\", \"format\": \"date\"}";
    for (int annotation = 0; annotation < 2; ++annotation) {
      const glrmask_json_options json = {.format_annotation = annotation == 1};
      glrmask_constraint* dated = NULL;
      CHECK_OK(glrmask_constraint_from_json_schema(date, strlen(date), "date.json", byte_tokenizer,
                                                   &json, NULL, &dated));
      glrmask_matcher* matcher = NULL;
      CHECK_OK(glrmask_matcher_new(dated, 0, &matcher));
      bool taken = annotation == 0;
      CHECK_OK(glrmask_matcher_accept_bytes(matcher, "\"x\"", 3, &taken));
      CHECK(taken == (annotation == 1));
      glrmask_matcher_free(matcher);
      glrmask_constraint_free(dated);
    }
    const glrmask_compile_options by = {(glrmask_engine)42, 1, NULL};
    CHECK(glrmask_constraint_from_json_schema(two, strlen(two), "two.json", byte_tokenizer, NULL,
                                              &by, &none) == GLRMASK_INVALID_ARGUMENT);
    CHECK(strstr(glrmask_last_error(), "engine") != NULL);
    const char* lark = "start: \"a\"\n";
    glrmask_grammar_options grammar_options = {NULL, (glrmask_policy)42, NULL, 0,
                                               GLRMASK_POSTLEX_NONE};
    CHECK(glrmask_constraint_from_lark(lark, strlen(lark), "a.lark", byte_tokenizer,
                                       &grammar_options, NULL, &none) == GLRMASK_INVALID_ARGUMENT);
    grammar_options.policy = GLRMASK_POLICY_GLR;
    grammar_options.postlex = (glrmask_postlex)42;
    CHECK(glrmask_constraint_from_lark(lark, strlen(lark), "a.lark", byte_tokenizer,
                                       &grammar_options, NULL, &none) == GLRMASK_INVALID_ARGUMENT);
    glrmask_tokenizer* typed = NULL;
    CHECK(glrmask_tokenizer_from_vocab(byte_tokens, byte_lengths, 257, (glrmask_vocab_type)42, &eos,
                                       1, NULL, 0, &typed) == GLRMASK_INVALID_ARGUMENT);
    CHECK(typed == NULL);
    glrmask_tokenizer_free(byte_tokenizer);
  }

  /* Budgets: a Parser DWA budget of one state fails naming it; an ambiguous grammar's step over
   * its work budget fails naming that, and leaves the matcher where it was. */
  glrmask_limits limits = glrmask_limits_default();
  CHECK(limits.max_step_work > 0 && limits.max_commit_seconds > 0);
  limits.max_parser_dwa_states = 1;
  glrmask_compile_options limited = {GLRMASK_ENGINE_WFA, 1, &limits};
  const char* ambiguous = "start: s\ns: s s | \"a\"\n";
  CHECK(glrmask_constraint_from_lark(ambiguous, strlen(ambiguous), "ss.lark", tokenizer, NULL,
                                     &limited, &none) == GLRMASK_LIMIT);
  CHECK(strstr(glrmask_last_error(), "max_parser_dwa_states") != NULL);
  limits = glrmask_limits_default();
  limits.max_step_work = 2000;
  limited.engine = GLRMASK_ENGINE_AUTO;
  glrmask_constraint* ss = NULL;
  CHECK_OK(glrmask_constraint_from_lark(ambiguous, strlen(ambiguous), "ss.lark", tokenizer, NULL,
                                        &limited, &ss));
  glrmask_matcher* ss_matcher = NULL;
  CHECK_OK(glrmask_matcher_new(ss, 0, &ss_matcher));
  char many_a[201];
  memset(many_a, 'a', 200);
  many_a[200] = 0;
  bool taken = false;
  CHECK(glrmask_matcher_accept_bytes(ss_matcher, many_a, 200, &taken) == GLRMASK_LIMIT);
  CHECK(strstr(glrmask_last_error(), "max_step_work") != NULL);
  CHECK(glrmask_matcher_byte_offset(ss_matcher) == 0);
  CHECK_OK(glrmask_matcher_accept_bytes(ss_matcher, "aa", 2, &taken));
  CHECK(taken);
  glrmask_matcher_free(ss_matcher);
  glrmask_constraint_free(ss);

  /* "a"+ "b" with the default (fastest) engine. */
  const char* grammar = "start: \"a\"+ \"b\"\n";
  glrmask_constraint* constraint = NULL;
  glrmask_compile_options compile = {GLRMASK_ENGINE_AUTO, 1, NULL};
  CHECK_OK(glrmask_constraint_from_lark(grammar, strlen(grammar), "ab.lark", tokenizer, NULL,
                                        &compile, &constraint));
  CHECK(glrmask_constraint_engine(constraint) == GLRMASK_ENGINE_WFA);
  /* The lazy and staged engines give the same first row ("a" and "ab"). */
  for (int engine = GLRMASK_ENGINE_LAZY; engine <= GLRMASK_ENGINE_STAGED; ++engine) {
    glrmask_compile_options other = {(glrmask_engine)engine, 1, NULL};
    glrmask_constraint* c = NULL;
    CHECK_OK(glrmask_constraint_from_lark(grammar, strlen(grammar), "ab.lark", tokenizer, NULL,
                                          &other, &c));
    CHECK(glrmask_constraint_engine(c) == (glrmask_engine)engine);
    glrmask_matcher* m = NULL;
    CHECK_OK(glrmask_matcher_new(c, 0, &m));
    int32_t first[1] = {-1};
    CHECK_OK(glrmask_matcher_fill_next_token_bitmask(m, first, 1));
    CHECK(first[0] == ((1 << 0) | (1 << 2)));
    glrmask_matcher_free(m);
    glrmask_constraint_free(c);
  }
  glrmask_matcher* matcher = NULL;
  CHECK_OK(glrmask_matcher_new(constraint, 0, &matcher));
  glrmask_constraint_free(constraint); /* the matcher keeps what it needs */
  glrmask_tokenizer_free(tokenizer);

  int32_t row[3] = {-1, -1, -1}; /* one word for the vocabulary, two of padding */
  CHECK_OK(glrmask_matcher_fill_next_token_bitmask(matcher, row, 3));
  CHECK(row[0] == ((1 << 0) | (1 << 2))); /* "a" and "ab" */
  CHECK(row[1] == 0 && row[2] == 0);
  CHECK(glrmask_matcher_fill_next_token_bitmask(matcher, row, 0) == GLRMASK_INVALID_ARGUMENT);

  bool accepted = true;
  CHECK_OK(glrmask_matcher_accept_token(matcher, 1, &accepted)); /* "b" first: refused */
  CHECK(!accepted);
  CHECK(glrmask_matcher_byte_offset(matcher) == 0);
  CHECK(glrmask_matcher_accept_token(matcher, 42, &accepted) == GLRMASK_INVALID_ARGUMENT);
  CHECK(glrmask_last_error_location().token == 42);
  CHECK_OK(glrmask_matcher_accept_token(matcher, 0, &accepted));
  CHECK(accepted);
  CHECK(glrmask_matcher_commit_token(matcher, stop) == GLRMASK_REJECTED);
  CHECK(glrmask_last_error_location().byte_offset == 1);
  CHECK(glrmask_last_error_location().token == stop);
  CHECK(strlen(glrmask_last_error_expected()) > 0);

  char* forced = NULL;
  size_t forced_length = 0;
  CHECK_OK(glrmask_matcher_jump_forward_string(matcher, &forced, &forced_length));
  CHECK(forced_length == 0); /* "a" or "b" may come */
  glrmask_free(forced);

  glrmask_matcher* copy = NULL;
  CHECK_OK(glrmask_matcher_clone(matcher, &copy));
  CHECK_OK(glrmask_matcher_accept_bytes(copy, "ab", 2, &accepted));
  CHECK(accepted && glrmask_matcher_is_accepting(copy));
  CHECK(!glrmask_matcher_is_accepting(matcher));

  glrmask_matcher* batch[3] = {matcher, NULL, copy};
  int32_t rows[6] = {7, 7, 7, 7, 7, 7};
  CHECK_OK(glrmask_fill_next_token_bitmasks(batch, 3, rows, 2));
  CHECK(rows[0] == ((1 << 0) | (1 << 1) | (1 << 2)) && rows[1] == 0);
  CHECK(rows[2] == 7 && rows[3] == 7);
  CHECK(rows[4] == (1 << 3) && rows[5] == 0); /* complete: only the stop id */
  CHECK_OK(glrmask_matcher_commit_token(copy, stop));
  CHECK(glrmask_matcher_is_terminated(copy));
  CHECK_OK(glrmask_matcher_rollback(copy, 1));
  CHECK(!glrmask_matcher_is_terminated(copy));
  CHECK(glrmask_matcher_rollback(copy, 100) == GLRMASK_STATE);
  CHECK_OK(glrmask_matcher_reset(copy));
  CHECK(glrmask_matcher_byte_offset(copy) == 0);

  CHECK(glrmask_matcher_new(NULL, 0, &copy) == GLRMASK_INVALID_ARGUMENT);
  glrmask_matcher_free(batch[2]);

  /* Special tokens in a GBNF grammar (docs/grammar.md, "Special tokens"): matched by id, never
   * by their text, which the vocabulary also has as an ordinary token (id 5). */
  {
    const char* spelled[] = {"a", "b", "<think>", "</think>", "</s>", "<think>"};
    const size_t spelled_lengths[] = {1, 1, 7, 8, 4, 7};
    const int32_t specials[] = {2, 3}, end = 4;
    glrmask_tokenizer* with_tokens = NULL;
    CHECK_OK(glrmask_tokenizer_from_vocab(spelled, spelled_lengths, 6, GLRMASK_VOCAB_RAW, &end, 1,
                                          specials, 2, &with_tokens));
    const char* gbnf = "root ::= <think> \"a\"+ </think>\n";
    glrmask_grammar* token_grammar = NULL;
    CHECK_OK(glrmask_grammar_from_source("gbnf", gbnf, strlen(gbnf), "think.gbnf", NULL, NULL,
                                         &token_grammar));
    glrmask_constraint* thinking = NULL;
    CHECK_OK(glrmask_constraint_compile(token_grammar, with_tokens, NULL, &thinking));
    glrmask_matcher* thinker = NULL;
    CHECK_OK(glrmask_matcher_new(thinking, 0, &thinker));
    int32_t row[1] = {0};
    bool taken = false;
    CHECK_OK(glrmask_matcher_fill_next_token_bitmask(thinker, row, 1));
    CHECK(row[0] == (1 << 2));
    CHECK_OK(glrmask_matcher_accept_token(thinker, 5, &taken));
    CHECK(!taken);
    CHECK_OK(glrmask_matcher_accept_token(thinker, 2, &taken));
    CHECK(taken);
    CHECK_OK(glrmask_matcher_fill_next_token_bitmask(thinker, row, 1));
    CHECK(row[0] == (1 << 0));
    CHECK_OK(glrmask_matcher_accept_token(thinker, 0, &taken));
    CHECK_OK(glrmask_matcher_fill_next_token_bitmask(thinker, row, 1));
    CHECK(row[0] == ((1 << 0) | (1 << 3)));
    CHECK_OK(glrmask_matcher_accept_token(thinker, 3, &taken));
    CHECK(taken && glrmask_matcher_is_accepting(thinker));
    const char* unknown_token = "root ::= <nothere>\n";
    glrmask_grammar* unknown_grammar = NULL;
    CHECK_OK(glrmask_grammar_from_source("gbnf", unknown_token, strlen(unknown_token),
                                         "unknown.gbnf", NULL, NULL, &unknown_grammar));
    glrmask_constraint* refused = NULL;
    CHECK(glrmask_constraint_compile(unknown_grammar, with_tokens, NULL, &refused) ==
          GLRMASK_GRAMMAR);
    CHECK(glrmask_last_error_location().line == 1 && glrmask_last_error_location().column == 10);
    glrmask_grammar_free(unknown_grammar);
    glrmask_matcher_free(thinker);
    glrmask_constraint_free(thinking);
    glrmask_grammar_free(token_grammar);
    glrmask_tokenizer_free(with_tokens);
  }
  glrmask_matcher_free(matcher);
  glrmask_matcher_free(NULL);
  if (failures == 0) printf("all C ABI checks passed\n");
  return failures == 0 ? 0 : 1;
}

static int teacher_force(int argc, char** argv) {
  const char* tokenizer_name = argv[1];
  const char* kind = argv[2];
  size_t grammar_length = 0, text_length = 0;
  char* grammar = read_file(argv[3], &grammar_length);
  char* text = read_file(argv[4], &text_length);
  if (grammar == NULL || text == NULL) {
    fprintf(stderr, "cannot read %s or %s\n", argv[3], argv[4]);
    return 1;
  }
  glrmask_grammar_options options;
  memset(&options, 0, sizeof options);
  const char* skippable[8];
  for (int i = 5; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--policy") == 0 && strcmp(argv[i + 1], "lark") == 0) {
      options.policy = GLRMASK_POLICY_LARK;
    } else if (strcmp(argv[i], "--skippable") == 0 && options.num_skippable < 8) {
      skippable[options.num_skippable++] = argv[i + 1];
    } else {
      fprintf(stderr, "unknown option %s\n", argv[i]);
      return 1;
    }
  }
  options.skippable = skippable;

  glrmask_tokenizer* tokenizer = NULL;
  glrmask_constraint* constraint = NULL;
  glrmask_matcher* matcher = NULL;
  CHECK_OK(glrmask_tokenizer_load(tokenizer_name, NULL, 0, &tokenizer));
  if (strcmp(kind, "lark") == 0)
    CHECK_OK(glrmask_constraint_from_lark(grammar, grammar_length, argv[3], tokenizer, &options,
                                          NULL, &constraint));
  else
    CHECK_OK(glrmask_constraint_from_json_schema(grammar, grammar_length, argv[3], tokenizer, NULL,
                                                 NULL, &constraint));
  if (failures != 0) return 1;
  CHECK_OK(glrmask_matcher_new(constraint, 0, &matcher));
  int32_t* ids = NULL;
  size_t num_ids = 0;
  CHECK_OK(glrmask_tokenizer_encode(tokenizer, text, text_length, &ids, &num_ids));
  const size_t words = glrmask_tokenizer_bitmask_words(tokenizer);
  int32_t* row = malloc(words * sizeof(int32_t));
  for (size_t step = 0; step <= num_ids && failures == 0; ++step) {
    CHECK_OK(glrmask_matcher_fill_next_token_bitmask(matcher, row, words));
    const int32_t token = step < num_ids ? ids[step] : -1;
    printf("%zu %d %llu\n", step, (int)token, (unsigned long long)mask_digest(row, words));
    if (token < 0) break;
    CHECK(((uint32_t)row[token / 32] >> (token % 32)) & 1u);
    CHECK_OK(glrmask_matcher_commit_token(matcher, token));
  }
  glrmask_free(ids);
  free(row);
  free(grammar);
  free(text);
  glrmask_matcher_free(matcher);
  glrmask_constraint_free(constraint);
  glrmask_tokenizer_free(tokenizer);
  return failures == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc == 1) return self_checks();
  if (argc < 5) {
    fprintf(stderr,
            "usage: %s [TOKENIZER lark|json_schema FILE TEXT [--policy lark] [--skippable NAME]]\n",
            argv[0]);
    return 2;
  }
  return teacher_force(argc, argv);
}
