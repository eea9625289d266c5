#!/usr/bin/env python3
"""Fails when a Markdown file of the repository names a repository path that does not exist.

Checked in every *.md file git knows (tracked, or new and not ignored):
  - relative Markdown links, `[text](target)`, resolved from the file's folder;
  - paths that start with a top-level folder of the repository (`mask/wfa/wfa_engine.h`,
    `tests/fixtures/cli/`), resolved from the root or from the file's folder;
  - bare file names (`lexer_fork.h`, `wfa.md`): some file of the tree must have that name;
  - paths that climb out of the file's folder (`../x`) must stay inside the repository and
    exist; the one outside path that may be named is the data folder's default, `../shared/data`
    beside the source tree (docs/architecture.md, "Settings").
A path git ignores (a build output, a local study result) is an output, not a file the repository
must hold, and is not checked. Paths written with a wildcard or a placeholder (`full-*`,
`<study>/`, `{md,csv}`) are skipped.
"""
import os
import pathlib
import re
import subprocess
import sys

# Paths the documentation names ahead of the change that adds them. Remove an entry once its path
# exists.
PENDING: set = set()
PENDING_NAMES = {os.path.basename(p) for p in PENDING if "." in p}
OUTSIDE_ALLOWED = {"../shared/data"}
# Bare names of files that are not the repository's: each data folder's description, the report
# experiments/maskbench writes, and a project whose name reads like a C++ file (GBNF's home).
OTHER_NAMES = {"SOURCE.md", "maskbench.md", "llama.cpp"}

LINK = re.compile(r"\]\(([^)\s]+)\)")
WORD = re.compile(r"(?<![\w./*<>{}-])((?:\.\./)*[\w.-]+(?:/[\w.-]+)*/?)")
BARE_NAME = re.compile(r"^[\w-]+\.(?:h|cpp|md)$")


def git_lines(root, *args, stdin=None):
    result = subprocess.run(["git", "-C", str(root), *args], input=stdin, capture_output=True,
                            text=True, check=False)
    return result.stdout.splitlines()


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    tracked = git_lines(root, "ls-files")
    if not tracked:
        print("not a git checkout: nothing checked")
        return 0
    # Files not committed yet count too (a document and the file it names may arrive together).
    files = tracked + git_lines(root, "ls-files", "--others", "--exclude-standard")
    top = {path.split("/", 1)[0] for path in files if "/" in path}
    basenames = {path.rsplit("/", 1)[-1] for path in files}

    findings = []  # (file, line, path, reason)
    candidates = []  # (file, line, path) to check against the tree
    for md in sorted(p for p in files if p.endswith(".md") and (root / p).is_file()):
        folder = os.path.dirname(md)
        text = (root / md).read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            for match in LINK.finditer(line):
                target = match.group(1).split("#", 1)[0]
                if not target or re.match(r"^[a-z]+:", target):
                    continue
                candidates.append((md, number, os.path.normpath(os.path.join(folder, target))))
            for match in WORD.finditer(line):
                word = match.group(1).rstrip(".")
                following = line[match.end():match.end() + 1]
                if following in ("*", "<", "{") or not word:
                    continue
                word = word.rstrip("/")
                if word.startswith("../"):
                    resolved = os.path.normpath(os.path.join(folder, word))
                    if word in OUTSIDE_ALLOWED or (root / resolved).exists():
                        continue
                    findings.append((md, number, word, "outside the repository, or missing"))
                elif "/" in word and word.split("/", 1)[0] in top:
                    if not (root / word).exists():
                        local = os.path.normpath(os.path.join(folder, word))
                        candidates.append((md, number, local if (root / local).exists() else word))
                elif ("/" not in word and BARE_NAME.match(word) and word not in basenames
                      and word not in OTHER_NAMES and word not in PENDING_NAMES):
                    findings.append((md, number, word, "no file of this name"))

    missing = [(md, n, p) for md, n, p in candidates
               if p not in PENDING and not p.startswith(tuple(q + "/" for q in PENDING))
               and not (root / p).exists()]
    # An ignored path (or a path inside an ignored folder) is an output, not a repository file.
    probes = "\n".join(p for _, _, p in missing) + "\n" + "\n".join(p + "/_" for _, _, p in missing)
    ignored = set(git_lines(root, "check-ignore", "--no-index", "--stdin", stdin=probes))
    for md, number, path in missing:
        if path in ignored or path + "/_" in ignored:
            continue
        findings.append((md, number, path, "does not exist"))

    for md, number, path, reason in findings:
        print(f"{md}:{number}: {path}: {reason}")
    print(f"{len(findings)} path(s) named in the Markdown files that are not in the repository")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
