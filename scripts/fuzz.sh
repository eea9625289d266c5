#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan+UBSan, in build-fuzz/) and runs each for
# SECONDS, one after another, at the lowest CPU priority.
# Usage: scripts/fuzz.sh SECONDS [TARGET...]     (targets: tests/fuzz/CMakeLists.txt; default all)
#
# Each target starts from a working copy of its stored corpus (build-fuzz/corpus/TARGET, seeded
# from tests/fuzz/corpus/TARGET) and writes what it finds (crash-*, leak-*, timeout-*, oom-*) to
# build-fuzz/findings/TARGET/. A finding goes into the repository as a reproducer under
# tests/fuzz/regressions/TARGET/, which the test suite replays. GLRMASK_FUZZ_MERGE=1 merges the
# working corpus back into tests/fuzz/corpus/TARGET (libFuzzer -merge=1 keeps only the inputs
# that add coverage). A line per target sums up the run: runs, seconds, coverage, findings.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}"
shift
TARGETS=("$@")
if ((${#TARGETS[@]} == 0)); then
  TARGETS=(lark_loader regex json_schema tokenizer_json artifact session)
fi
BUILD="$ROOT/build-fuzz"

CC=clang-16 CXX=clang++-16 cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGLRMASK_FUZZ=ON >/dev/null
nice -n 19 cmake --build "$BUILD" -j 2 --target "${TARGETS[@]/%/_fuzzer}"

# Inputs above these sizes are ignored by the targets themselves; the limits keep libFuzzer
# from spending its time on them.
declare -A MAX_LEN=([lark_loader]=4096 [regex]=512 [json_schema]=4096 [tokenizer_json]=65536
                    [artifact]=65536 [session]=64)
for target in "${TARGETS[@]}"; do
  corpus="$BUILD/corpus/$target"
  findings="$BUILD/findings/$target"
  mkdir -p "$corpus" "$findings"
  cp -n "$ROOT/tests/fuzz/corpus/$target"/* "$corpus"/ 2>/dev/null || true
  log="$BUILD/findings/$target.log"
  start=$(date +%s)
  status=0
  nice -n 19 "$BUILD/tests/fuzz/${target}_fuzzer" "$corpus" -max_total_time="$SECONDS_EACH" \
    -max_len="${MAX_LEN[$target]}" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$findings/" >"$log" 2>&1 || status=$?
  elapsed=$(($(date +%s) - start))
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  found=$(find "$findings" -maxdepth 1 -type f | wc -l)
  echo "fuzz: $target: ${runs} runs in ${elapsed} s, ${cov:-cov: ?}, exit $status, findings $found" \
       "(load: $(cut -d' ' -f1-3 /proc/loadavg); log $log)"
  if [[ "${GLRMASK_FUZZ_MERGE:-0}" == 1 ]]; then
    merged="$BUILD/merged/$target"
    rm -rf "$merged" && mkdir -p "$merged"
    nice -n 19 "$BUILD/tests/fuzz/${target}_fuzzer" -merge=1 -max_len="${MAX_LEN[$target]}" \
      "$merged" "$ROOT/tests/fuzz/corpus/$target" "$corpus" >/dev/null 2>&1
    rm -f "$ROOT/tests/fuzz/corpus/$target"/* && cp "$merged"/* "$ROOT/tests/fuzz/corpus/$target"/
  fi
done
