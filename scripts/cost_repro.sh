#!/usr/bin/env bash
# The costly valid inputs of docs/limits.md (findings 1, 2 and 3), each run by the built
# `glrmask` under a memory cap, with its wall time, CPU time and peak memory. Too slow for the test
# suite at the sizes that matter; run it by hand to see whether a change bounds them:
#   bash scripts/cost_repro.sh [SCALE]      # SCALE 1 (default): seconds each; 10: the issue's sizes
# Needs a build (build/apps/glrmask) and GNU time (/usr/bin/time). The tiny tokenizer fixture
# keeps the vocabulary out of the figures. Each line: finding, size, exit code, seconds, peak KB;
# a line that is not the figures is the command's last message (an error, or the cap's bad_alloc).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
G="$ROOT/build/apps/glrmask"
TOK="$ROOT/tests/fixtures/tokenizers/tiny_byte_level/tokenizer.json"
SCALE="${1:-1}"
CAP_KB="${GLRMASK_COST_CAP_KB:-8388608}"  # 8 GiB
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

run() {  # finding size command...
  local finding="$1" size="$2"
  shift 2
  local out
  out="$( (ulimit -v "$CAP_KB"; /usr/bin/time -f 'exit %x, %e s wall, %U s user, %M KB peak' "$@") 2>&1 >/dev/null |
    tail -1)"
  echo "finding $finding  size $size  $out"
}

# 1: an object schema with N optional string properties, compiled.
for n in $((100 * SCALE)) $((200 * SCALE)); do
  python3 -c "import json,sys; n=int(sys.argv[1]); print(json.dumps({'type':'object',
    'properties':{f'p{i}':{'type':'string'} for i in range(n)},'additionalProperties':False}))" \
    "$n" >"$WORK/object.json"
  run 1 "$n properties" "$G" compile --json-schema "$WORK/object.json" --tokenizer "$TOK" \
    -o "$WORK/object.glrmask"
done

# 2: highly ambiguous grammars, checked on growing text.
printf 'start: s\ns: s s | "a"\n' >"$WORK/ss.lark"
for n in $((50 * SCALE)) $((100 * SCALE)); do
  head -c "$n" /dev/zero | tr '\0' a >"$WORK/a.txt"
  run 2 "s: s s, $n bytes" "$G" check "$WORK/ss.lark" "$WORK/a.txt"
done

# 3: right against left recursion, checked on growing text.
printf 'start: l\nl: "a" l | "a"\n' >"$WORK/right.lark"
printf 'start: l\nl: l "a" | "a"\n' >"$WORK/left.lark"
for n in $((5000 * SCALE)) $((10000 * SCALE)); do
  head -c "$n" /dev/zero | tr '\0' a >"$WORK/a.txt"
  run 3 "right, $n bytes" "$G" check "$WORK/right.lark" "$WORK/a.txt"
  run 3 "left, $n bytes" "$G" check "$WORK/left.lark" "$WORK/a.txt"
done
