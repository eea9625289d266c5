#!/usr/bin/env python3
"""The Python module's cost per call over the C++ facade (benchmarks/api_bench.cpp runs the same
steps in C++): fill_next_token_bitmask on every teacher-forced step of SynCode's JSON grammar
with Llama-3 (the JSON text of api_bench), steps round robin, and accept_token.

    PYTHONPATH=build/api/python python3 benchmarks/python_bench.py [GRAMMAR.lark]

Prints the mean over many rounds in microseconds per call. Timing is the machine's: note the load
average beside any figure you keep (docs/api.md).
"""
import os
import sys
import time

import glrmask

TEXT = ('{"name": "glrmask", "tags": ["exact", "fast"], "version": 2,'
        ' "nested": {"a": [1, 2.5, -3e2], "b": null, "c": true}}')


def main():
    data = os.environ.get("GLRMASK_DATA", "")
    grammar = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        data, "grammars", "syncode", "json_grammar.lark")
    tokenizer = glrmask.Tokenizer.load("llama3")
    with open(grammar, encoding="utf-8") as f:
        constraint = glrmask.Constraint.from_lark(f.read(), tokenizer)
    matcher = glrmask.Matcher(constraint)
    steps = []
    tokens = tokenizer.encode(TEXT)
    for token in tokens:
        steps.append(matcher.clone())
        matcher.commit_token(token)
    steps.append(matcher.clone())
    bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)

    rounds = 2000
    for step in steps:  # warm the engine's mask cache, as api_bench's first round does
        step.fill_next_token_bitmask(bitmask, 0)
    start = time.perf_counter()
    for _ in range(rounds):
        for step in steps:
            step.fill_next_token_bitmask(bitmask, 0)
    fill = (time.perf_counter() - start) / (rounds * len(steps)) * 1e6

    start = time.perf_counter()
    for _ in range(rounds // 10):
        m = glrmask.Matcher(constraint)
        for token in tokens:
            m.accept_token(token)
    accept = (time.perf_counter() - start) / (rounds // 10 * len(tokens)) * 1e6
    print(f"python fill_next_token_bitmask  {fill:.2f} us per call ({len(steps)} steps)")
    print(f"python accept_token             {accept:.2f} us per call")


if __name__ == "__main__":
    sys.exit(main())
