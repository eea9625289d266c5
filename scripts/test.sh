#!/usr/bin/env bash
# Command (2) of the README: set up (idempotent), the fast checks of the tree (scripts/lint.sh:
# layering, doc links, format, clang-tidy on the changed sources), build with warnings as errors,
# run the whole test suite through CTest, and build, install and try the pip package
# (scripts/python_package.sh). Then, unless GLRMASK_SKIP_SANITIZE=1, build again with AddressSanitizer
# and UndefinedBehaviorSanitizer and run the suite there too (the slow reference comparisons
# against the JavaScript tokenizers and python3-lark, and the corpus sweeps, run in the optimized
# build only, and the sanitizer build leaves out what that pass does not run: the programs of
# those tests, the studies, the Python module, the benchmarks).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="$(nproc)"

bash "$ROOT/scripts/setup.sh"
bash "$ROOT/scripts/lint.sh"

# The Python module is built for the project's test environment (setup.sh makes it: Debian's
# python3 with transformers pinned), where the Python tests run and must find what they use.
PYTHON="${GLRMASK_CACHE:-$ROOT/.cache}/python/venv/bin/python"
# (-U: the package step's scikit-build-core settings, left in the tree's cache, are dropped.)
cmake -S "$ROOT" -B "$ROOT/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGLRMASK_WERROR=ON \
  -DPython_EXECUTABLE="$PYTHON" -DGLRMASK_PYTHON_EXTRAS_REQUIRED=ON -U 'SKBUILD*' >/dev/null
cmake --build "$ROOT/build" -j "$JOBS"
ctest --test-dir "$ROOT/build" --output-on-failure -j "$JOBS"
# The pip package: built from the same tree (nothing recompiled), installed and run elsewhere.
bash "$ROOT/scripts/python_package.sh" "$ROOT/build" "$PYTHON"

if [[ "${GLRMASK_SKIP_SANITIZE:-0}" != 1 ]]; then
  cmake -S "$ROOT" -B "$ROOT/build-sanitize" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGLRMASK_WERROR=ON -DGLRMASK_SANITIZE=ON -DGLRMASK_BUILD_BENCHMARKS=OFF \
    -DGLRMASK_BUILD_EXPERIMENTS=OFF -DGLRMASK_BUILD_PYTHON=OFF -DGLRMASK_BUILD_SLOW_TESTS=OFF >/dev/null
  cmake --build "$ROOT/build-sanitize" -j "$JOBS"
  ctest --test-dir "$ROOT/build-sanitize" --output-on-failure -j "$JOBS" -LE 'reference|corpus'
fi
