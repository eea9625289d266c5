#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (the repository's .clang-format)
# makes of it; prints the offending files. Run `clang-format -i FILE` to fix one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.c')
bad=0
# One clang-format process per 64 files, two at a time; only a batch that fails is looked at file
# by file to name the culprits.
check_batch() {
  clang-format --dry-run --Werror "$@" >/dev/null 2>&1 && return 0
  for f in "$@"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "not formatted: $f"
  done
  return 1
}
export -f check_batch
if ! printf '%s\0' "${files[@]}" | xargs -0 -n 64 -P 2 bash -c 'check_batch "$@"' _; then
  bad=1
fi
if [[ $bad == 0 ]]; then echo "all ${#files[@]} C++ files formatted"; fi
exit $bad
