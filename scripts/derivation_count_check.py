#!/usr/bin/env python3
"""The long check of glrmask's derivation counts (docs/ambiguity.md): random small grammars with
ε-rules, unit cycles and hidden left recursion, every text up to a length over their terminals,
and for each text three counts that share no code:

  glrmask   `glrmask parse GRAMMAR FILE` (GLR parse forest over the grammar as written);
  span      a span recurrence written here from the grammar text alone: the trees of A over
            tokens [i, j) are, over A's rules and every cut of [i, j), the product of the parts'
            counts; a cycle of derivable parts means infinitely many;
  lark      Lark's Earley parser (Debian's python3-lark), counted on its shared packed forest
            (tests/reference/lark_derivation_counts.py).

glrmask must equal span on every text (exit 1 otherwise). Lark is reported beside them: the
cases where it differs are counted by kind, with the first examples.

  scripts/derivation_count_check.py [--grammars N] [--max-length L] [--seed S] [--glrmask PATH]
"""
import argparse
import collections
import concurrent.futures
import itertools
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
TERMINALS = "abc"


def random_grammar(rng):
    """{name: [alternative, ...]} with symbols 'start', 'n1'.. and one-character literals."""
    count = rng.randint(1, 4)
    names = ["start"] + [f"n{i}" for i in range(1, count)]
    rules = {}
    for name in names:
        alternatives = []
        for _ in range(rng.randint(1, 3)):
            body = []
            for _ in range(rng.randint(0, 3)):
                body.append(rng.choice(TERMINALS) if rng.random() < 0.5 else rng.choice(names))
            if body not in alternatives:
                alternatives.append(body)
        rules[name] = alternatives
    return rules


def lark_text(rules):
    lines = []
    for name, alternatives in rules.items():
        bodies = [" ".join(f'"{s}"' if s in TERMINALS else s for s in body) for body in alternatives]
        lines.append(f"{name}: " + " | ".join(bodies))
    return "\n".join(lines) + "\n"


def productive_and_reachable(rules):
    """The grammar Lark and glrmask see: unproductive, then unreachable, nonterminals removed
    (both do so); None when the start symbol derives nothing or no terminal is left."""
    productive = set()
    changed = True
    while changed:
        changed = False
        for name, alternatives in rules.items():
            if name in productive:
                continue
            if any(all(s in TERMINALS or s in productive for s in body) for body in alternatives):
                productive.add(name)
                changed = True
    if "start" not in productive:
        return None
    kept = {n: [b for b in alts if all(s in TERMINALS or s in productive for s in b)]
            for n, alts in rules.items() if n in productive}
    reachable, todo = {"start"}, ["start"]
    while todo:
        for body in kept[todo.pop()]:
            for s in body:
                if s not in TERMINALS and s not in reachable:
                    reachable.add(s)
                    todo.append(s)
    result = {n: alts for n, alts in kept.items() if n in reachable}
    # glrmask's lexer needs at least one terminal.
    if not any(s in TERMINALS for alts in result.values() for body in alts for s in body):
        return None
    return result


def span_count(rules, text):
    """Trees of start over text: an int, or None for infinitely many."""
    n = len(text)
    derivable = set()

    def cuts(body, i, j, known):
        # Every cut i = c0 <= ... <= cm = j whose parts are derivable under `known`.
        def extend(k, at):
            if k == len(body):
                if at == j:
                    yield [at]
                return
            symbol = body[k]
            if symbol in TERMINALS:
                if at < j and text[at] == symbol:
                    for rest in extend(k + 1, at + 1):
                        yield [at] + rest
                return
            for end in range(at, j + 1):
                if (symbol, at, end) in known:
                    for rest in extend(k + 1, end):
                        yield [at] + rest
        return extend(0, i)

    changed = True
    while changed:
        changed = False
        for name, alternatives in rules.items():
            for i in range(n + 1):
                for j in range(i, n + 1):
                    if (name, i, j) in derivable:
                        continue
                    if any(next(cuts(body, i, j, derivable), None) is not None for body in alternatives):
                        derivable.add((name, i, j))
                        changed = True
    memo, in_progress = {}, set()

    def count(symbol, i, j):
        if symbol in TERMINALS:
            return 1 if j == i + 1 and text[i] == symbol else 0
        key = (symbol, i, j)
        if key not in derivable:
            return 0
        if key in memo:
            return memo[key]
        if key in in_progress:
            return None
        in_progress.add(key)
        total = 0
        for body in rules[symbol]:
            for cut in cuts(body, i, j, derivable):
                product = 1
                for k, s in enumerate(body):
                    part = count(s, cut[k], cut[k + 1])
                    product = None if part is None or product is None else product * part
                total = None if product is None or total is None else total + product
        in_progress.discard(key)
        memo[key] = total
        return total

    return count("start", 0, n)


def glrmask_count(glrmask, grammar_path, text, scratch):
    path = pathlib.Path(scratch) / f"t{abs(hash((str(grammar_path), text)))}.txt"
    path.write_text(text, encoding="utf-8")
    run = subprocess.run([glrmask, "parse", str(grammar_path), str(path)], capture_output=True,
                         text=True)
    path.unlink()
    if run.returncode != 0:
        if "syntax error" in run.stderr or "lexer error" in run.stderr:
            return None
        raise RuntimeError(f"glrmask parse failed on {grammar_path} {text!r}: {run.stderr}")
    for line in run.stdout.splitlines():
        if line.startswith("derivations: "):
            return line.split(": ", 1)[1]
    raise RuntimeError(f"no count in: {run.stdout}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grammars", type=int, default=300)
    parser.add_argument("--max-length", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--glrmask", default=str(ROOT / "build" / "apps" / "glrmask"))
    parser.add_argument("--python", default="/usr/bin/python3", help="a Python with lark")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    totals = collections.Counter()
    lark_differs = collections.Counter()
    examples = []
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        grammars = []
        while len(grammars) < args.grammars:
            rules = productive_and_reachable(random_grammar(rng))
            if rules is not None:
                grammars.append(rules)
        texts = ["".join(t) for length in range(args.max_length + 1)
                 for t in itertools.product(TERMINALS, repeat=length)]
        batch = pathlib.Path(scratch) / "batch.jsonl"
        with batch.open("w", encoding="utf-8") as out:
            for rules in grammars:
                out.write(json.dumps({"grammar": lark_text(rules), "texts": texts}) + "\n")
        lark_run = subprocess.run(
            [args.python, str(ROOT / "tests" / "reference" / "lark_derivation_counts.py"), str(batch)],
            capture_output=True, text=True, check=True)
        lark_answers = [json.loads(line) for line in lark_run.stdout.splitlines()]

        def check(index):
            rules = grammars[index]
            path = pathlib.Path(scratch) / f"g{index}.lark"
            path.write_text(lark_text(rules), encoding="utf-8")
            rows = []
            for text in texts:
                span = span_count(rules, text)
                span = None if span == 0 else ("infinite" if span is None else str(span))
                rows.append((text, glrmask_count(args.glrmask, path, text, scratch), span))
            return index, rows

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for index, rows in pool.map(check, range(len(grammars))):
                lark = lark_answers[index].get("counts") or [None] * len(texts)
                for (text, ours, span), theirs in zip(rows, lark):
                    totals["texts"] += 1
                    if span is not None:
                        totals["sentences"] += 1
                        totals["infinite" if span == "infinite" else ("ambiguous" if int(span) > 1 else "unambiguous")] += 1
                    if ours != span:
                        failures.append((lark_text(grammars[index]), text, ours, span))
                    if theirs != span:
                        kind = f"lark {('none' if theirs is None else 'infinite' if theirs == 'infinite' else 'finite')}, exact {('none' if span is None else 'infinite' if span == 'infinite' else 'finite')}"
                        lark_differs[kind] += 1
                        if len(examples) < 5:
                            examples.append((lark_text(grammars[index]), text, theirs, span))
                    else:
                        totals["lark agrees"] += 1
    print(f"grammars: {len(grammars)}, texts per grammar: {len(texts)} (length <= {args.max_length})")
    print("texts: {texts}, sentences: {sentences} (unambiguous {unambiguous}, ambiguous {ambiguous}, "
          "infinite {infinite})".format(**{k: totals[k] for k in
                                           ("texts", "sentences", "unambiguous", "ambiguous", "infinite")}))
    print(f"glrmask = span recurrence: {totals['texts'] - len(failures)} of {totals['texts']}")
    print(f"lark = span recurrence: {totals['lark agrees']} of {totals['texts']}")
    for kind, number in sorted(lark_differs.items()):
        print(f"  lark differs ({kind}): {number}")
    for grammar, text, theirs, span in examples:
        print(f"  e.g. text {text!r}: lark {theirs}, exact {span}; grammar: {grammar.strip()!r}")
    for grammar, text, ours, span in failures[:10]:
        print(f"FAIL text {text!r}: glrmask {ours}, span {span}; grammar: {grammar.strip()!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
