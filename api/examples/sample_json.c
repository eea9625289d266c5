/* The sampling loop of sample_json.cpp through the C ABI: a JSON Schema, random logits with a
 * preference for closing tokens and the stop ids, the bitmask applied by hand. Prints the
 * instance.
 *   sample_json_c SCHEMA.json [TOKENIZER] */
#include <glrmask/glrmask.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char* what) {
  fprintf(stderr, "%s: %s\n", what, glrmask_last_error());
  return 2;
}

int main(int argc, char** argv) {
  if (argc < 2) return fprintf(stderr, "usage: sample_json_c SCHEMA.json [TOKENIZER]\n"), 2;
  static char schema[1 << 16];
  FILE* file = fopen(argv[1], "rb");
  if (file == NULL) return fprintf(stderr, "cannot open %s\n", argv[1]), 2;
  const size_t length = fread(schema, 1, sizeof schema, file);
  fclose(file);

  glrmask_tokenizer* tokenizer = NULL;
  glrmask_constraint* constraint = NULL;
  glrmask_matcher* matcher = NULL;
  if (glrmask_tokenizer_load(argc > 2 ? argv[2] : "llama3", NULL, 0, &tokenizer) != GLRMASK_OK)
    return fail("tokenizer");
  if (glrmask_constraint_from_json_schema(schema, length, argv[1], tokenizer, NULL, NULL,
                                          &constraint) != GLRMASK_OK)
    return fail("schema");
  if (glrmask_matcher_new(constraint, 0, &matcher) != GLRMASK_OK) return fail("matcher");

  /* The stand-in model's preferences: closing tokens, and the stop ids above all. */
  const size_t vocab = glrmask_tokenizer_vocab_size(tokenizer);
  const size_t words = glrmask_tokenizer_bitmask_words(tokenizer);
  int32_t* bitmask = malloc(words * sizeof *bitmask);
  float* bias = calloc(vocab, sizeof *bias);
  for (size_t id = 0; id < vocab; ++id) {
    const char* bytes;
    size_t n;
    glrmask_tokenizer_token_bytes(tokenizer, (int32_t)id, &bytes, &n);
    for (size_t k = 0; k < n; ++k)
      if (bytes[k] == '"' || bytes[k] == '}' || bytes[k] == ']' || bytes[k] == ',') bias[id] = 6.0f;
  }
  const int32_t* stops;
  size_t num_stops;
  glrmask_tokenizer_stop_ids(tokenizer, &stops, &num_stops);
  for (size_t i = 0; i < num_stops; ++i) bias[stops[i]] = 20.0f;

  srand(1);
  for (int step = 0; step < 400 && !glrmask_matcher_is_terminated(matcher); ++step) {
    if (glrmask_matcher_fill_next_token_bitmask(matcher, bitmask, words) != GLRMASK_OK)
      return fail("mask");
    int32_t best = -1;
    float best_logit = 0;
    for (size_t id = 0; id < vocab; ++id) {
      if ((((uint32_t)bitmask[id / 32] >> (id % 32)) & 1u) == 0) continue; /* masked out */
      const float logit = (float)rand() / (float)RAND_MAX + bias[id];
      if (best < 0 || logit > best_logit) best_logit = logit, best = (int32_t)id;
    }
    if (glrmask_matcher_commit_token(matcher, best) != GLRMASK_OK) return fail("commit");
    if (!glrmask_matcher_is_terminated(matcher)) {
      const char* bytes;
      size_t n;
      glrmask_tokenizer_token_bytes(tokenizer, best, &bytes, &n);
      fwrite(bytes, 1, n, stdout);
    }
  }
  printf("\n");
  const int finished = glrmask_matcher_is_terminated(matcher);
  free(bias);
  free(bitmask);
  glrmask_matcher_free(matcher);
  glrmask_constraint_free(constraint);
  glrmask_tokenizer_free(tokenizer);
  return finished ? 0 : 1;
}
