#!/usr/bin/env bash
# The pip package end to end, a step of scripts/test.sh after the suite. Both pip builds run in
# the suite's Release tree with the suite's CMake settings, so nothing is compiled again: what is
# checked is the packaging (pyproject.toml, the CMake component "python", the version from
# glrmask/version.h) and the installed package.
#   1. `pip install .` into a fresh virtual environment of Debian's python3 (whose site packages
#      give numpy and torch), with the pinned scikit-build-core and pybind11 of
#      scripts/python-requirements.txt (no build isolation: nothing else is fetched). Run from
#      outside the source tree, the docs/api.md Python example must print valid instances, and
#      model.generate with glrmask.hf.LogitsProcessor on a tiny random Llama valid ones too
#      (transformers from the test environment);
#   2. `pip wheel .`, its contents and metadata checked, and the wheel installed into a fresh
#      environment that sees no Debian package (numpy from its pin; the interpreter first on PATH
#      when the wheel fits it), where the example runs again;
#   3. mypy on the type stubs and on a program that uses them, and mypy's stubtest: the stubs name
#      what the installed package has, with the same parameters where Python can tell.
# Usage: scripts/python_package.sh BUILD_DIR PYTHON   (PYTHON: the test environment's python)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:?build dir}"
TEST_PYTHON="${2:?python of the test environment}"
# Absolute, without resolving the link (a virtual environment's python is one).
TEST_PYTHON="$(cd "$(dirname "$TEST_PYTHON")" && pwd)/$(basename "$TEST_PYTHON")"
CACHE="${GLRMASK_CACHE:-$ROOT/.cache}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1
SCHEMA="$ROOT/tests/fixtures/api/person.schema.json"
site_packages() { "$1" -c 'import site; print(site.getsitepackages()[0])'; }

# The suite's settings (scripts/test.sh), so that scikit-build-core's configure changes nothing;
# Python_EXECUTABLE stays the test environment's whichever interpreter runs pip.
settings=(build-dir="$BUILD" logging.level=WARNING cmake.define.CMAKE_BUILD_TYPE=Release
  cmake.define.GLRMASK_WERROR=ON cmake.define.GLRMASK_BUILD_TESTS=ON
  cmake.define.GLRMASK_BUILD_BENCHMARKS=ON cmake.define.GLRMASK_BUILD_EXPERIMENTS=ON
  cmake.define.GLRMASK_PYTHON_PACKAGE=OFF cmake.define.GLRMASK_PYTHON_EXTRAS_REQUIRED=ON
  cmake.define.Python_EXECUTABLE="$TEST_PYTHON")
build_pins=()
while read -r pin; do build_pins+=("$pin"); done < <(
  grep -E '^(scikit_build_core|pybind11|packaging|pathspec)==' "$ROOT/scripts/python-requirements.txt")

check_example() {  # PYTHON OUTPUT: the example's instances are valid JSON Schema instances
  "$1" - "$SCHEMA" "$2" <<'EOF'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
lines = [line for line in open(sys.argv[2]).read().splitlines() if line.strip()]
done = [line for line in lines if not line.startswith("unfinished")]
assert done, "the example finished no instance"
for line in done:
    jsonschema.validate(json.loads(line), schema)
print(f"[package] the api.md example: {len(done)} of {len(lines)} instances finished, all valid")
EOF
}

echo "[package] pip install . into a fresh environment of Debian's python3"
/usr/bin/python3 -m venv --system-site-packages "$WORK/debian"
"$WORK/debian/bin/python" -m pip install --quiet --no-deps "${build_pins[@]}"
"$WORK/debian/bin/python" -m pip install --quiet --no-build-isolation --no-deps \
  "${settings[@]/#/--config-settings=}" "$ROOT"
cd "$WORK"  # not the source tree: the installed package must be what is imported
export GLRMASK_CACHE="$CACHE"
"$WORK/debian/bin/python" -c \
  'import glrmask; print("[package] installed", glrmask.__version__, "at", glrmask.__file__)'
"$WORK/debian/bin/python" "$ROOT/api/examples/sample_json.py" "$SCHEMA" --batch 4 \
  --max-tokens 300 > "$WORK/example.txt"
check_example "$WORK/debian/bin/python" "$WORK/example.txt"
# transformers and its pins live in the test environment; the installed glrmask comes first.
PYTHONPATH="$(site_packages "$TEST_PYTHON")" "$WORK/debian/bin/python" \
  "$ROOT/api/examples/transformers_generate.py" "$SCHEMA" \
  --tokenizer-json "$CACHE/tokenizers/llama3/package/models/tokenizer.json" --batch 4 --check

echo "[package] pip wheel ."
"$TEST_PYTHON" -m pip wheel --quiet --no-build-isolation --no-deps -w "$WORK/wheels" \
  "${settings[@]/#/--config-settings=}" "$ROOT"
wheel="$(ls "$WORK"/wheels/glrmask-*.whl)"
version="$(sed -n 's/^#define GLRMASK_VERSION_STRING "\(.*\)"/\1/p' \
  "$ROOT/api/include/glrmask/version.h")"
# What the wheel holds: the package and its metadata, nothing of the C++ install.
"$TEST_PYTHON" - "$wheel" "$version" <<'EOF'
import sys, zipfile
wheel, version = sys.argv[1], sys.argv[2]
archive = zipfile.ZipFile(wheel)
names = archive.namelist()
info = f"glrmask-{version}.dist-info/"
assert f"glrmask-{version}-" in wheel, (wheel, version)
stray = [n for n in names if not n.startswith(("glrmask/", info))]
assert not stray, f"the wheel holds files outside the package: {stray}"
for wanted in ("glrmask/__init__.py", "glrmask/__init__.pyi", "glrmask/py.typed", "glrmask/hf.py",
               "glrmask/vllm.py", "glrmask/sglang.py"):
    assert wanted in names, f"{wanted} is missing from the wheel"
assert any(n.startswith("glrmask/_glrmask") and n.endswith(".so") for n in names), names
entry_points = archive.read(info + "entry_points.txt").decode()
assert "vllm.general_plugins" in entry_points and "sglang.srt.plugins" in entry_points, entry_points
metadata = archive.read(info + "METADATA").decode()
assert "License-Expression: Apache-2.0" in metadata, metadata[:800]
print(f"[package] {wheel.rsplit('/', 1)[-1]}: {len(names)} files, License-Expression: Apache-2.0")
EOF
# The interpreter first on PATH when the wheel fits it (the same CPython version as Debian's),
# so that a user's own Python is tried too; Debian's otherwise.
bare_python=/usr/bin/python3
tag() { "$1" -c 'import sys; print(sys.implementation.cache_tag)' 2>/dev/null || true; }
first="$(command -v python3 || true)"
if [[ -n "$first" && "$(tag "$first")" == "$(tag /usr/bin/python3)" ]]; then bare_python="$first"; fi
echo "[package] the wheel in an environment of $("$bare_python" -c 'import sys; print(sys.executable, sys.version.split()[0])') without Debian's packages"
"$bare_python" -m venv "$WORK/bare"
"$WORK/bare/bin/python" -m pip install --quiet --no-deps numpy==1.26.4 "$wheel"
"$WORK/bare/bin/python" "$ROOT/api/examples/sample_json.py" "$SCHEMA" --batch 2 \
  --max-tokens 300 > "$WORK/bare.txt"
check_example "$WORK/debian/bin/python" "$WORK/bare.txt"

echo "[package] mypy on the stubs, and stubtest: the stubs against the installed package"
"$TEST_PYTHON" -m mypy --strict --no-error-summary --cache-dir "$WORK/mypy" \
  "$ROOT/api/python/glrmask/__init__.pyi"
cat > "$WORK/uses_stubs.py" <<'EOF'
import glrmask


def mask_once(tokenizer: glrmask.Tokenizer, schema: str) -> bool:
    constraint = glrmask.Constraint.from_json_schema(schema, tokenizer)
    matcher = glrmask.Matcher(constraint, stop_token_ids=tokenizer.stop_ids)
    bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    restricted = matcher.fill_next_token_bitmask(bitmask, 0)
    glrmask.fill_next_token_bitmasks([matcher], bitmask, indices=[0])
    return restricted and matcher.validate_tokens([1, 2]) >= 0
EOF
MYPYPATH="$ROOT/api/python" "$TEST_PYTHON" -m mypy --strict --no-error-summary \
  --cache-dir "$WORK/mypy" "$WORK/uses_stubs.py"
printf '[mypy]\nignore_missing_imports = True\ncache_dir = %s\n' "$WORK/mypy" > "$WORK/mypy.ini"
PYTHONPATH="$(site_packages "$WORK/debian/bin/python")" "$TEST_PYTHON" -m mypy.stubtest glrmask \
  --mypy-config-file "$WORK/mypy.ini" --allowlist "$ROOT/tests/api/python/stubtest_allowlist.txt"
echo "[package] ok"
