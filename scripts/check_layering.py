#!/usr/bin/env python3
"""Fails when a source file includes a header of a folder its own folder may not depend on.

The layers, lowest first (docs/architecture.md): a folder may include its own headers and those
of the folders listed for it. Everything outside these folders (apps, experiments, benchmarks,
tests) may include any of them.
"""
import pathlib
import re
import sys

PUBLIC = "api/include/glrmask"
ALLOWED = {
    # The public headers: what a user of the library includes, so nothing internal.
    PUBLIC: [],
    "lib/core": [PUBLIC],
}
_LIB = [PUBLIC, "lib/core", "lib/token_set", "lib/tokenizer", "lib/grammar", "lib/lark"]
_LEXER = ["lexer/runtime", "lexer/regex", "lexer/terminal_dwa"]
ALLOWED.update({
    "lib/token_set": [PUBLIC, "lib/core"],
    "lib/tokenizer": [PUBLIC, "lib/core"],
    "lib/grammar": [PUBLIC, "lib/core"],
    "lib/lark": [PUBLIC, "lib/core", "lib/grammar"],
    "lib/json_schema": [PUBLIC, "lib/core", "lib/grammar"],
    "lib/gbnf": [PUBLIC, "lib/core", "lib/grammar"],
    # The lexer's three parts, lowest first: the DFA and the lexer at run time, the regex
    # compiler that builds the DFA, the Terminal DWA (the lexer against the vocabulary).
    "lexer/runtime": _LIB,
    "lexer/regex": _LIB + ["lexer/runtime"],
    "lexer/terminal_dwa": _LIB + ["lexer/runtime", "lexer/regex"],
    "glr": _LIB + _LEXER,
    # Analysis off the decoding path: nothing of the library proper may include it.
    "glr/analysis": _LIB + _LEXER + ["glr"],
})
# The mask layer, by concern: the engine contract (mask/ itself), the Parser DWA, the compiled
# mask built from it, its artifact and the runtime caches, then the engines.
_MASK = _LIB + _LEXER + ["glr"]
ALLOWED.update({
    "mask": _MASK,
    "mask/parser_dwa": _MASK + ["mask"],
    "mask/compiled": _MASK + ["mask", "mask/parser_dwa"],
    "mask/artifact": _MASK + ["mask", "mask/parser_dwa", "mask/compiled"],
    "mask/cache": _MASK + ["mask", "mask/parser_dwa", "mask/compiled"],
    "mask/oracle": _MASK + ["mask"],
    "mask/spanner": _MASK + ["mask", "mask/parser_dwa"],
    "mask/wfa": _MASK + ["mask", "mask/parser_dwa", "mask/compiled", "mask/cache"],
    "mask/lazy": _MASK + ["mask", "mask/parser_dwa", "mask/compiled", "mask/cache", "mask/wfa"],
})
_ALL_MASK = [folder for folder in ALLOWED if folder == "mask" or folder.startswith("mask/")]
ALLOWED.update({
    # The facade's implementation: everything below it but the analysis.
    "api/src": _LIB + ["lib/json_schema", "lib/gbnf"] + _LEXER + ["glr"] + _ALL_MASK,
    # What the programs share and nothing ships: everything.
    "harness": _LIB + ["lib/json_schema", "lib/gbnf"] + _LEXER + ["glr", "glr/analysis"] + _ALL_MASK + ["api/src"],
})
LAYERED = sorted(ALLOWED, key=len, reverse=True)
INCLUDE = re.compile(r'^\s*#\s*include\s+["<]((?:glrmask/|lib/|lexer/|glr/|mask/|api/|harness/)[^">]+)[">]')


def place_new_folder(folder: str):
    """The layer of a folder ALLOWED does not list, where its kind has a default: a new front end
    (lib/<name>: the model and core, like lib/lark and lib/json_schema) and a new mask engine
    (mask/<name>: what the wfa engine may include). Returns the folder, now placed, or None."""
    parts = folder.split("/")
    if len(parts) == 2 and parts[0] == "lib":
        ALLOWED[folder] = [PUBLIC, "lib/core", "lib/grammar"]
    elif len(parts) == 2 and parts[0] == "mask":
        ALLOWED[folder] = list(ALLOWED["mask/wfa"])
    else:
        return None
    print(f"{folder}: not listed; placed as a new {'front end' if parts[0] == 'lib' else 'engine'}")
    # The facade reaches every front end and engine.
    ALLOWED["api/src"].append(folder)
    ALLOWED["harness"].append(folder)
    return folder


def folder_of(path: str):
    if path.startswith("glrmask/"):  # a public header, as included: <glrmask/x.hpp>
        return PUBLIC
    for folder in LAYERED:
        if path.startswith(folder + "/"):
            return folder
    return None


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    for kind in ("lib", "mask"):
        for folder in sorted((root / kind).iterdir()):
            name = folder.relative_to(root).as_posix()
            if folder.is_dir() and name not in ALLOWED:
                place_new_folder(name)
    global LAYERED
    LAYERED = sorted(ALLOWED, key=len, reverse=True)
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
        if source.parent.relative_to(root).as_posix() != own:
            # A new subfolder is a layer of its own: it must be placed in ALLOWED.
            print(f"{relative}: its folder is not in the layering (scripts/check_layering.py)")
            bad += 1
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
