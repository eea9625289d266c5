#!/usr/bin/env python3
"""Writes every valid instance of the MaskBench dev schemas as the text a decoder would produce.

Usage: dump_instances.py <maskbench-dev folder> <output folder>

Each <schema>.json holds {"valid": [data, ...], ...}; instance k is written to
<output>/<schema>--<k>.json as json.dumps(data, ensure_ascii=False) in UTF-8 (the form MaskBench's
runner gives the model; see the folder's SOURCE.md). Prints the written paths, one per line.
"""
import json
import pathlib
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, target = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    target.mkdir(parents=True, exist_ok=True)
    for schema in sorted(source.glob("*.json")):
        with schema.open(encoding="utf-8") as f:
            document = json.load(f)
        for k, data in enumerate(document["valid"]):
            path = target / f"{schema.stem}--{k}.json"
            path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
