#!/usr/bin/env bash
# The long run of the random-grammar differential test (tests/mask/random_grammar_differential_test.cpp):
# GRAMMARS random grammars from SEED, each with a random vocabulary, the oracle, the wfa and the
# spanner against an independent enumeration of the language, at the lowest CPU priority.
# Usage: scripts/differential.sh [GRAMMARS [SEED]]     (default 500 grammars from seed 1000)
# Needs a built tree (build/, as scripts/test.sh makes it). Prints one line of figures; a
# disagreement fails with the seed, the grammar, the tokens and the prefix: a reproducer.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GLRMASK_DIFFERENTIAL_GRAMMARS="${1:-500}" GLRMASK_DIFFERENTIAL_SEED="${2:-1000}" \
  nice -n 19 "$ROOT/build/tests/mask_tests" \
  "random grammars: oracle\\, wfa and spanner agree with an independent enumeration"
