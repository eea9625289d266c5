#!/usr/bin/env bash
# Command (1) of the README: set up (idempotent), build, and run the main job on its embedded
# default:
#   1. `glrmask demo`: compile the bundled JSON grammar against Llama-3 for the wfa engine,
#      teacher-force the bundled document, check every mask against the oracle, print the
#      latency table (extra arguments go here; see `glrmask demo --help`);
#   2. the tail-latency study (experiments/, docs/experiments.md) at small size on the same
#      bundled grammar and document with Llama-3, wfa against the oracle; its report goes to
#      build/main-job/tail_latency/ and its table is printed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build"

bash "$ROOT/scripts/setup.sh"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j "$(nproc)" --target glrmask studies

"$BUILD/apps/glrmask" demo "$@"

echo
echo "tail-latency study (small) on the bundled example, Llama-3, wfa vs oracle"
example="$BUILD/main-job"
"$BUILD/apps/glrmask" demo --write-example "$example" >/dev/null
cd "$ROOT"
"$BUILD/experiments/studies" tail_latency --size small --tokenizers llama3 --engines wfa,oracle \
  --grammar-file "$example/bundled-json.lark" --inputs "$example/bundled-document.json" \
  --out "$example/tail_latency" 2>/dev/null
# The report's tables, without the header and plot links.
sed -n '/^|/p' "$example/tail_latency/README.md"
echo "report: $example/tail_latency/README.md"
