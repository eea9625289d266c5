#!/usr/bin/env bash
# The fast checks of the tree, before anything is built (the first step of scripts/test.sh, and
# an optional pre-commit hook: `bash scripts/lint.sh --install-hook`):
#   - every #include follows the folder layering (check_layering.py),
#   - every repository path the Markdown files name exists (check_doc_links.py),
#   - every tracked C++ file is formatted (check_format.sh),
#   - clang-tidy (.clang-tidy) finds nothing in the C++ sources changed since GLRMASK_LINT_BASE
#     (default: the previous commit; in a pre-commit hook, the staged files), at most
#     GLRMASK_LINT_TIDY_MAX of them (default 6), two at a time.
# Exit code 0 when all hold. About half a minute on the 2-core machine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [[ "${1:-}" == "--install-hook" ]]; then
  hook="$(git rev-parse --git-path hooks)/pre-commit"
  printf '#!/usr/bin/env bash\nGLRMASK_LINT_STAGED=1 exec bash scripts/lint.sh\n' > "$hook"
  chmod +x "$hook"
  echo "lint: installed $hook"
  exit 0
fi

start=$SECONDS
status=0
python3 scripts/check_layering.py | tail -n 3 || status=1
python3 scripts/check_doc_links.py | tail -n 3 || status=1
bash scripts/check_format.sh | tail -n 5 || status=1

tidy="$(command -v clang-tidy-16 || command -v clang-tidy || true)"
if [[ -z "$tidy" ]]; then
  echo "lint: clang-tidy not found (scripts/setup.sh installs clang-tidy-16); skipped"
elif [[ -d .git ]] || git rev-parse --git-dir >/dev/null 2>&1; then
  if [[ "${GLRMASK_LINT_STAGED:-0}" == 1 ]]; then
    mapfile -t changed < <(git diff --cached --name-only --diff-filter=AM -- '*.cpp')
  else
    base="${GLRMASK_LINT_BASE:-HEAD~1}"
    if git rev-parse --verify -q "$base" >/dev/null; then
      mapfile -t changed < <(git diff --name-only --diff-filter=AM "$base" -- '*.cpp')
    else
      changed=()
    fi
  fi
  # Only the library, the facade, the harness and the program: tests, studies and benchmarks are
  # held to the compiler's warnings alone.
  sources=()
  for f in "${changed[@]}"; do
    case "$f" in
      lib/* | lexer/* | glr/* | mask/* | api/src/* | harness/* | apps/*) [[ -f "$f" ]] && sources+=("$f") ;;
    esac
  done
  max="${GLRMASK_LINT_TIDY_MAX:-6}"
  if ((${#sources[@]} > max)); then
    echo "lint: ${#sources[@]} changed sources; clang-tidy checks the first $max"
    sources=("${sources[@]:0:max}")
  fi
  if ((${#sources[@]})); then
    # A compilation database of the plain (non-unity) build: configured, not built.
    db="$ROOT/build-lint"
    if [[ ! -f "$db/compile_commands.json" ]]; then
      cmake -S "$ROOT" -B "$db" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGLRMASK_UNITY_BUILD=OFF \
        -DGLRMASK_BUILD_TESTS=OFF -DGLRMASK_BUILD_BENCHMARKS=OFF -DGLRMASK_BUILD_EXPERIMENTS=OFF \
        -DGLRMASK_BUILD_PYTHON=OFF >/dev/null
    fi
    # Clang 16 with libstdc++ 12 needs the workaround the fuzz build uses to parse JsonValue.
    workaround="$ROOT/tests/fuzz/clang_libstdcxx_workaround.h"
    found="$(printf '%s\n' "${sources[@]}" |
      xargs -P 2 -n 1 "$tidy" -p "$db" --quiet --warnings-as-errors='*' \
        --extra-arg="-include$workaround" --extra-arg=-Wno-unknown-warning-option \
        --extra-arg=-Wno-unneeded-internal-declaration 2>/dev/null | grep -E 'warning:|error:' || true)"
    if [[ -n "$found" ]]; then
      echo "$found"
      status=1
    fi
    echo "lint: clang-tidy on ${#sources[@]} changed source(s)"
  else
    echo "lint: no changed C++ sources for clang-tidy"
  fi
fi
echo "lint: $((SECONDS - start)) s, $([[ $status == 0 ]] && echo ok || echo FAILED)"
exit $status
