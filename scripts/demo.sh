#!/usr/bin/env bash
# Command (1) of the README: set up (idempotent), build, and run the main job on its embedded
# default. Extra arguments go to `glrmask demo` (see `glrmask demo --help`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

bash "$ROOT/scripts/setup.sh"
cmake -S "$ROOT" -B "$ROOT/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$ROOT/build" -j "$(nproc)" --target glrmask
exec "$ROOT/build/apps/glrmask" demo "$@"
