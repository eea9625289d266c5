#!/usr/bin/env bash
# Installs the peer engines the peers study compares glrmask with (experiments/peers/
# requirements.txt, exact pins, from PyPI) into a virtual environment of their own,
# .cache/peers/venv (or $GLRMASK_CACHE/peers/venv), beside the project's Python pins. Remade when
# either pin list changes. Run scripts/setup.sh first (Debian's python3, numpy and torch).
#   bash scripts/setup_peers.sh        then: docs/experiments.md, "Peers"
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${GLRMASK_CACHE:-$ROOT/.cache}"
venv="$CACHE/peers/venv"
pins=("$ROOT/scripts/python-requirements.txt" "$ROOT/experiments/peers/requirements.txt")
wanted="$(cat "${pins[@]}" | sha256sum | cut -d' ' -f1)"
stamp="$venv/.requirements.sha256"
if [[ ! -x "$venv/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]]; then
  echo "setup_peers: making $venv"
  rm -rf "$venv"
  mkdir -p "$CACHE/peers"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  for list in "${pins[@]}"; do
    "$venv/bin/python" -m pip install --quiet --no-deps --disable-pip-version-check -r "$list"
  done
  echo "$wanted" > "$stamp"
fi
# The peers must import (xgrammar warns that it cannot build a torch extension it does not need).
"$venv/bin/python" -W ignore -c "import xgrammar, llguidance, outlines_core" 2>/dev/null ||
  { echo "setup_peers: the peers do not import in $venv" >&2; exit 1; }
echo "setup_peers: done ($venv)"
