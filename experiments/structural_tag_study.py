#!/usr/bin/env python3
"""A tool-calling structural tag with Qwen3, through the Python API: exactness and latency.

Two tools whose arguments are MaskBench dev schemas (Github_easy---o71308, Github_trivial---o9777,
from the data folder), triggered by "<tool_call>" as text and as Qwen3's <tool_call> token
(151657). For each trigger kind:
  - teacher-forced replies (free text with quotes and braces, calls whose arguments are the
    schemas' valid instances, the trigger spelled by one token and by pieces): at every step the
    engine's row equals the oracle's;
  - random walks (each step a token drawn from the oracle's row): the same;
  - latency: each step's fill_next_token_bitmask for the engine in a pass of its own after a
    first pass (the first pass is reported apart), split into free-text steps and steps inside a
    tag.

    GLRMASK_DATA=... PYTHONPATH=build/api/python .cache/python/venv/bin/python \\
        experiments/structural_tag_study.py [--engine wfa] [--walks 4] [--steps 40] [--out DIR]

Writes steps.csv (one row per timed step) and summary.md to --out (default
experiments/results/structural_tag/full).
"""
import argparse
import json
import os
import pathlib
import random
import statistics
import sys
import time

import numpy as np

import glrmask

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOLS = [("upgrade_image", "Github_easy---o71308.json"), ("report_job", "Github_trivial---o9777.json")]
FREE_TEXT = ['Sure, "let me" check {that}. ', "Hmm <tool> is not a call; ", "Done: 3 < 4.\n", " "]


def schemas(data):
    found = []
    for name, file in TOOLS:
        item = json.loads((data / "jsonschema" / "maskbench-dev" / file).read_text())
        found.append((name, item["schema"], item["valid"]))
    return found


def tag_spec(tools, token_trigger):
    opening = {"token": "<tool_call>"} if token_trigger else "<tool_call>"
    tags = [{"begin": [opening, '\n{"name": "%s", "arguments": ' % name],
             "content": {"type": "json_schema", "json_schema": schema},
             "end": "}\n</tool_call>"} for name, schema, _ in tools]
    return {"type": "structural_tag",
            "format": {"type": "triggered_tags", "triggers": [opening], "tags": tags}}


def replies(tokenizer, tools):
    """Token sequences with the kind ("free" or "tag") of the step before each token."""
    out = []
    for index in range(6):
        ids, kinds = [], []

        def add(text, kind, pieces=False):
            if pieces:  # the text spelled by one encode per character run
                encoded = [t for part in ("<tool", "_call", ">") for t in tokenizer.encode(part)]
            else:
                encoded = tokenizer.encode(text)
            ids.extend(encoded)
            kinds.extend([kind] * len(encoded))

        for call in range(2):
            add(FREE_TEXT[(index + call) % len(FREE_TEXT)], "free")
            name, _, valid = tools[(index + call) % len(tools)]
            arguments = json.dumps(valid[(index // 2) % len(valid)])
            add("<tool_call>", "free", pieces=(index + call) % 3 == 2)
            add('\n{"name": "%s", "arguments": %s}\n</tool_call>' % (name, arguments), "tag")
        add(FREE_TEXT[index % len(FREE_TEXT)], "free")
        out.append((ids, kinds))
    return out


def row_of(matcher, row):
    matcher.fill_next_token_bitmask(row, 0)
    return row[0].copy()


def compare_teacher_forced(constraint, oracle, sequences, width):
    row = glrmask.allocate_token_bitmask(1, width)
    steps = mismatches = refused = 0
    for ids, _ in sequences:
        matcher, reference = glrmask.Matcher(constraint), glrmask.Matcher(oracle)
        for token in ids:
            steps += 1
            if not (row_of(matcher, row) == row_of(reference, row)).all():
                mismatches += 1
            if not (matcher.accept_token(token) and reference.accept_token(token)):
                refused += 1
                break
    return steps, mismatches, refused


def compare_random_walks(constraint, oracle, width, walks, length, seed, stop_ids):
    tokenizer_bytes = constraint.tokenizer.token_bytes
    row = glrmask.allocate_token_bitmask(1, width)
    walker = random.Random(seed)
    steps = mismatches = 0
    for walk in range(walks):
        matcher, reference = glrmask.Matcher(constraint), glrmask.Matcher(oracle)
        for step in range(length):
            began = time.perf_counter()
            expected = row_of(reference, row)
            steps += 1
            if not (row_of(matcher, row) == expected).all():
                mismatches += 1
            bits = np.unpackbits(expected.view(np.uint8), bitorder="little")[:width]
            allowed = [t for t in np.flatnonzero(bits).tolist() if t not in stop_ids]
            if not allowed:
                break
            token = walker.choice(allowed)
            matcher.accept_token(token)
            reference.accept_token(token)
            if time.perf_counter() - began > 5:
                print(f"  walk {walk} step {step}: {time.perf_counter() - began:.1f} s, token "
                      f"{token} {tokenizer_bytes(token)!r}", file=sys.stderr, flush=True)
    return steps, mismatches


def timed_pass(constraint, sequences, width):
    row = glrmask.allocate_token_bitmask(1, width)
    times = []
    for reply, (ids, kinds) in enumerate(sequences):
        matcher = glrmask.Matcher(constraint)
        for step, (token, kind) in enumerate(zip(ids, kinds)):
            start = time.perf_counter_ns()
            matcher.fill_next_token_bitmask(row, 0)
            times.append((reply, step, kind, (time.perf_counter_ns() - start) / 1000.0))
            assert matcher.accept_token(token)
    return times


def summary(values):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
    return (f"{len(values)} | {statistics.mean(values):.2f} | {pick(0.5):.2f} | {pick(0.9):.2f} | "
            f"{pick(0.99):.2f} | {values[-1]:.2f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", default="wfa")
    parser.add_argument("--walks", type=int, default=4)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--out", default=str(ROOT / "experiments/results/structural_tag/full"))
    args = parser.parse_args()
    data = pathlib.Path(os.environ.get("GLRMASK_DATA", ""))
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = glrmask.Tokenizer.load("qwen3")
    width = tokenizer.vocab_size
    tools = schemas(data)
    sequences = replies(tokenizer, tools)
    lines = [f"# Structural tag study: {args.engine} with Qwen3 ({width} ids)", "",
             f"{time.strftime('%Y-%m-%d')}, glrmask {glrmask.version()}, load average "
             f"{os.getloadavg()[0]:.2f} at the start; {len(sequences)} replies of "
             f"{sum(len(ids) for ids, _ in sequences)} steps in all; {args.walks} random walks "
             f"of at most {args.steps} steps", ""]
    csv_rows = ["trigger,pass,reply,step,kind,mask_us"]
    for token_trigger in (False, True):
        trigger = "token" if token_trigger else "text"
        spec = tag_spec(tools, token_trigger)
        start = time.perf_counter()
        constraint = glrmask.Constraint.from_structural_tag(spec, tokenizer, engine=args.engine)
        compile_seconds = time.perf_counter() - start
        oracle = glrmask.Constraint.from_structural_tag(spec, tokenizer, engine="oracle")
        print(f"[{trigger}] compiled in {compile_seconds:.2f} s", file=sys.stderr, flush=True)
        forced = compare_teacher_forced(constraint, oracle, sequences, width)
        print(f"[{trigger}] teacher-forced: {forced}", file=sys.stderr, flush=True)
        walked = compare_random_walks(constraint, oracle, width, args.walks, args.steps,
                                      7 + token_trigger, set(tokenizer.stop_ids))
        print(f"[{trigger}] random walks: {walked}", file=sys.stderr, flush=True)
        first = timed_pass(constraint, sequences, width)
        second = timed_pass(constraint, sequences, width)
        for name, times in (("first", first), ("second", second)):
            for reply, step, kind, us in times:
                csv_rows.append(f"{trigger},{name},{reply},{step},{kind},{us:.3f}")
        lines += [f"## Trigger as {trigger}", "",
                  f"compile {compile_seconds:.2f} s; teacher-forced: {forced[0]} steps, "
                  f"{forced[1]} rows differing from the oracle's, {forced[2]} replies refused; "
                  f"random walks: {walked[0]} steps, {walked[1]} rows differing", "",
                  "| pass, steps | n | mean µs | p50 | p90 | p99 | max |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for name, times in (("first", first), ("second", second)):
            for kind in ("free", "tag"):
                values = [us for _, _, k, us in times if k == kind]
                lines.append(f"| {name} pass, {kind} | {summary(values)} |")
        lines.append("")
    (out / "steps.csv").write_text("\n".join(csv_rows) + "\n")
    (out / "summary.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
