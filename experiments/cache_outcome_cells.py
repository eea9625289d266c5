#!/usr/bin/env python3
"""Mean get_mask and commit latency per grammar and tokenizer, split by the wfa's dense-mask cache
outcome: a hit on the step's weight ids, a hit found by the union of their class rows, or a new
union (a miss). With padded vocabularies (tokenizer names BASE+DONOR@SIZE, docs/experiments.md)
every row of one base has the same steps, so the rows differ only in the vocabulary size.

Several tail_latency folders (repeated runs) may be given: each cell is then the list of their
means, in the order given, so the run-to-run spread stays visible.

Usage: cache_outcome_cells.py RESULTS_DIR [RESULTS_DIR ...]   (folders with steps.csv)
"""
import collections
import csv
import sys

OUTCOMES = ("all", "id hit", "row hit", "miss", "commit")


def outcome(counters):
    if counters.get("mask_cache_row_hit") == "1":
        return "row hit"
    return "id hit" if counters.get("mask_cache_hit") == "1" else "miss"


def read_run(folder):
    """(grammar, tokenizer) -> outcome -> [count, total µs], in first-seen order."""
    cells = {}
    with open(f"{folder}/steps.csv", newline="") as steps:
        for row in csv.DictReader(steps):
            if row["engine"] != "wfa" or not row["counters"]:
                continue
            counters = dict(item.split("=") for item in row["counters"].split(";"))
            cell = cells.setdefault((row["grammar"], row["tokenizer"]),
                                    collections.defaultdict(lambda: [0, 0.0]))
            mask_us = float(row["mask_us"])
            for name in ("all", outcome(counters)):
                cell[name][0] += 1
                cell[name][1] += mask_us
            if float(row["commit_us"]) > 0:
                cell["commit"][0] += 1
                cell["commit"][1] += float(row["commit_us"])
    return cells


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    runs = [read_run(folder) for folder in argv[1:]]
    print("| grammar | tokenizer | steps | id hit / row hit / miss % | mean µs | id hit µs "
          "| row hit µs | miss µs | commit µs |")
    print("|---|---|---:|---|---|---|---|---|---|")
    for key, first in runs[0].items():
        steps = first["all"][0]
        shares = " / ".join(f"{100 * first[name][0] / steps:.1f}"
                            for name in ("id hit", "row hit", "miss"))
        means = []
        for name in OUTCOMES:
            values = []
            for run in runs:
                count, total = run.get(key, {}).get(name, (0, 0.0))
                values.append(f"{total / count:.2f}" if count else "-")
            means.append(", ".join(values))
        print(f"| {key[0]} | {key[1]} | {steps} | {shares} | " + " | ".join(means) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
