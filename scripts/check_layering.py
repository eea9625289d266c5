#!/usr/bin/env python3
"""Fails when a source file includes a header of a folder its own folder may not depend on.

The layers, lowest first (docs/architecture.md): a folder may include its own headers and those
of the folders listed for it. Everything outside these folders (apps, experiments, benchmarks,
tests) may include any of them.
"""
import pathlib
import re
import sys

ALLOWED = {
    # The public headers: what a user of the library includes, so nothing internal.
    "api/include/glrmask": [],
    "lib/core": ["api/include/glrmask"],
}
_LIB = ["api/include/glrmask", "lib/core", "lib/token_set", "lib/tokenizer", "lib/grammar"]
ALLOWED.update({
    "lib/token_set": ["api/include/glrmask", "lib/core"],
    "lib/tokenizer": ["api/include/glrmask", "lib/core"],
    "lib/grammar": ["api/include/glrmask", "lib/core"],
    "lib/json_schema": ["api/include/glrmask", "lib/core", "lib/grammar"],
    "lexer": _LIB,
    "glr": _LIB + ["lexer"],
    "wfa": _LIB + ["lexer", "glr"],
    # The facade's implementation: everything below it.
    "api/src": _LIB + ["lib/json_schema", "lexer", "glr", "wfa"],
})
LAYERED = sorted(ALLOWED, key=len, reverse=True)
INCLUDE = re.compile(r'^\s*#\s*include\s+["<]((?:glrmask/|lib/|lexer/|glr/|wfa/|api/)[^">]+)[">]')


def folder_of(path: str):
    if path.startswith("glrmask/"):  # a public header, as included: <glrmask/x.hpp>
        return "api/include/glrmask"
    for folder in LAYERED:
        if path.startswith(folder + "/"):
            return folder
    return None


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    bad = 0
    checked = 0
    sources = {path for folder in ALLOWED for path in (root / folder).glob("**/*")}
    for source in sorted(sources):
        if source.suffix not in (".h", ".hpp", ".cpp", ".c"):
            continue
        relative = source.relative_to(root).as_posix()
        own = folder_of(relative)
        if own is None:
            continue
        checked += 1
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = folder_of(match.group(1))
            if target is None or target == own or target in ALLOWED[own]:
                continue
            print(f"{relative}:{number}: {own} may not include {match.group(1)} ({target})")
            bad += 1
    print(f"{checked} files checked, {bad} include(s) against the layering")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
