#!/usr/bin/env python3
"""Mean get_mask latency of the steps that allowed a long hyphen-run token against the others,
within like steps: same grammar and tokenizer, same dense-cache outcome (hit or miss), same band
of GSS pairs visited. The plain comparison (tail_latency's summary.csv) mixes kinds of steps: in
Java the steps where a unary minus may start are expression steps, which miss the cache more
often and walk deeper stacks, so they are slower whether or not a hyphen run is in the vocabulary.

Usage: hyphen_run_cells.py RESULTS_DIR [TOKENIZER]   (a tail_latency folder with steps.csv)
"""
import collections
import csv
import sys


BANDS = [(5, "1-4"), (10, "5-9"), (20, "10-19"), (40, "20-39"), (None, "40+")]


def band(pairs):
    for limit, name in BANDS:
        if limit is None or pairs < limit:
            return name
    raise AssertionError("unreachable")


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    tokenizer = argv[2] if len(argv) == 3 else "llama3"
    cells = collections.defaultdict(lambda: [0, 0.0])
    with open(f"{argv[1]}/steps.csv", newline="") as steps:
        for row in csv.DictReader(steps):
            if row["tokenizer"] != tokenizer or not row["counters"]:
                continue
            counters = dict(item.split("=") for item in row["counters"].split(";"))
            key = (row["grammar"], "hit" if counters.get("mask_cache_hit") == "1" else "miss",
                   band(int(float(counters.get("gss_pairs_visited", "0")))), row["hyphen_run"])
            cells[key][0] += 1
            cells[key][1] += float(row["mask_us"])
    print("| grammar | cache | GSS pairs | steps with / without a hyphen run | mean µs with / without |")
    print("|---|---|---|---:|---:|")
    order = {name: i for i, (_, name) in enumerate(BANDS)}
    for grammar, cache, pairs in sorted({key[:3] for key in cells},
                                        key=lambda k: (k[0], k[1], order[k[2]])):
        with_run = cells.get((grammar, cache, pairs, "1"), [0, 0.0])
        without = cells.get((grammar, cache, pairs, "0"), [0, 0.0])
        if with_run[0] < 10 or without[0] < 10:
            continue  # too few steps on one side to compare
        print(f"| {grammar} | {cache} | {pairs} | {with_run[0]} / {without[0]} | "
              f"{with_run[1] / with_run[0]:.2f} / {without[1] / without[0]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
