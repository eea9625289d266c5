#!/usr/bin/env python3
"""The Python module's cost per call over the C++ facade (benchmarks/api_bench.cpp runs the same
steps in C++): fill_next_token_bitmask on every teacher-forced step of SynCode's JSON grammar
with Llama-3 (the JSON text of api_bench), steps round robin, and accept_token through the text from a new matcher (api_bench's
BM_MatcherFill/json and BM_MatcherAccept/json are the same in C++).

    PYTHONPATH=build/api/python python3 benchmarks/python_bench.py [GRAMMAR.lark]

Prints the median of five repetitions in microseconds per call. Timing is the machine's: note the load
average beside any figure you keep (docs/api.md).
"""
import os
import statistics
import sys
import time

import numpy as np

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

    for step in steps:  # warm the engine's mask cache, as api_bench's first round does
        step.fill_next_token_bitmask(bitmask, 0)

    def time_fill(rounds=2000):
        start = time.perf_counter()
        for _ in range(rounds):
            for step in steps:
                step.fill_next_token_bitmask(bitmask, 0)
        return (time.perf_counter() - start) / (rounds * len(steps)) * 1e6

    def time_accept(rounds=400):
        # As BM_MatcherAccept: a matcher made and taken through the text, per round.
        start = time.perf_counter()
        for _ in range(rounds):
            m = glrmask.Matcher(constraint)
            for token in tokens:
                m.accept_token(token)
        return (time.perf_counter() - start) / (rounds * len(tokens)) * 1e6

    repetitions = 5
    fills = sorted(time_fill() for _ in range(repetitions))
    accepts = sorted(time_accept() for _ in range(repetitions))
    print(f"python fill_next_token_bitmask  {statistics.median(fills):.3f} us per call, median of "
          f"{repetitions} (min {fills[0]:.3f}; {len(steps)} steps)")
    print(f"python accept_token             {statistics.median(accepts):.3f} us per call, median "
          f"of {repetitions} (min {accepts[0]:.3f}; {len(tokens)} tokens)")

    # apply_token_bitmask_inplace on a batch of 64 rows of float32 logits (the steps' masks),
    # numpy against a CPU torch tensor: the same kernel, reached through the array or the
    # tensor's data pointer.
    batch = 64
    masks = glrmask.allocate_token_bitmask(batch, tokenizer.vocab_size)
    glrmask.fill_next_token_bitmasks([steps[i % len(steps)].clone() for i in range(batch)], masks)
    logits = np.random.default_rng(0).standard_normal((batch, tokenizer.vocab_size),
                                                      dtype=np.float32)
    arrays = {"numpy": (logits, masks)}
    try:
        import torch

        arrays["torch"] = (torch.from_numpy(logits.copy()), torch.from_numpy(masks.copy()))
    except ImportError:
        print("torch is not installed: the torch apply is not timed")
    for name, (values, mask) in arrays.items():
        def time_apply(rounds=20):
            start = time.perf_counter()
            for _ in range(rounds):
                glrmask.apply_token_bitmask_inplace(values, mask)
            return (time.perf_counter() - start) / rounds * 1e3

        applies = sorted(time_apply() for _ in range(repetitions))
        print(f"python apply ({name}, batch {batch})  {statistics.median(applies):.3f} ms per call, "
              f"median of {repetitions} (min {applies[0]:.3f})")


if __name__ == "__main__":
    sys.exit(main())
