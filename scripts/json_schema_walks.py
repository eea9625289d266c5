#!/usr/bin/env python3
"""Random walks under every MaskBench schema, judged by python3-jsonschema (a long run, not a test).

For each schema file of a MaskBench folder ({"schema": ..., "valid": [...], "invalid": [...]}),
`glrmask generate --json-schema` draws WALKS random walks from the engine's masks (uniform over
the allowed tokens, biased towards closing brackets and EOS so most walks end), and every walk
that ended by EOS is validated against the schema with python3-jsonschema (the schema's own
draft, formats checked where the library can). A walk the validator rejects is a soundness bug:
the masks allowed a text outside the schema's language.

Usage: json_schema_walks.py [--folder DIR] [--walks N] [--seed S] [--tokenizer T]
                            [--engine lazy|staged|wfa|spanner] [--max-tokens N] [--glrmask PATH]
                            [--property-order schema|any] [--limit K] [--only NAME,...]
                            [--from-valid]
Defaults: the data folder's jsonschema/maskbench-dev ($GLRMASK_DATA or ../shared/data beside the
repository), 8 walks, seed 1, llama3, the lazy engine, 600 tokens, build/apps/glrmask.
Prints one line per schema and a total; exits 1 when any walk is invalid (its seed and text are
printed), 77 when python3-jsonschema or the folder is missing.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data = pathlib.Path(os.environ.get("GLRMASK_DATA", ROOT.parent / "shared" / "data"))
    parser.add_argument("--folder", type=pathlib.Path, default=data / "jsonschema" / "maskbench-dev")
    parser.add_argument("--walks", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tokenizer", default="llama3")
    parser.add_argument("--engine", default="lazy")
    parser.add_argument("--max-tokens", type=int, default=600)
    parser.add_argument("--glrmask", type=pathlib.Path, default=ROOT / "build" / "apps" / "glrmask")
    parser.add_argument("--property-order", default="schema")
    parser.add_argument("--limit", type=int, default=0, help="only the first K schemas")
    parser.add_argument("--only", default="", help="only these schemas (comma-separated names)")
    parser.add_argument("--from-valid", action="store_true",
                        help="start each walk inside the schema's first valid instance, at a "
                             "uniform cut (generate --prefix): for schemas whose walks from the "
                             "start hardly ever end")
    args = parser.parse_args()
    try:
        import jsonschema
    except ImportError:
        print("python3-jsonschema is missing (Debian: python3-jsonschema)", file=sys.stderr)
        return 77
    if not args.folder.is_dir():
        print(f"no folder {args.folder}: set GLRMASK_DATA", file=sys.stderr)
        return 77

    files = sorted(args.folder.glob("*.json"))
    if args.only:
        names = set(args.only.split(","))
        files = [f for f in files if f.stem in names]
    if args.limit:
        files = files[: args.limit]
    totals = {"schemas": 0, "refused": 0, "walks": 0, "eos": 0, "valid": 0, "invalid": 0}
    with tempfile.TemporaryDirectory() as scratch:
        schema_path = pathlib.Path(scratch) / "schema.json"
        for file in files:
            document = json.loads(file.read_text(encoding="utf-8"))
            schema = document["schema"]
            schema_path.write_text(json.dumps(schema), encoding="utf-8")
            prefix = []
            if args.from_valid and document["valid"]:
                prefix_path = pathlib.Path(scratch) / "prefix.json"
                prefix_path.write_text(json.dumps(document["valid"][0], ensure_ascii=False),
                                       encoding="utf-8")
                prefix = ["--prefix", str(prefix_path)]
            totals["schemas"] += 1
            command = [str(args.glrmask), "generate", "--json-schema", str(schema_path),
                       "--tokenizer", args.tokenizer, "--engine", args.engine,
                       "--seed", str(args.seed), "--count", str(args.walks),
                       "--max-tokens", str(args.max_tokens), "--eos-bias", "0.5",
                       "--close-bias", "0.5", "--max-token-bytes", "4",
                       "--json-property-order", args.property_order, "--json-lines"] + prefix
            run = subprocess.run(command, capture_output=True, text=True)
            if run.returncode != 0:
                reason = (run.stderr.strip().splitlines() or ["?"])[-1]
                totals["refused"] += 1
                print(f"{file.stem}: refused ({reason[:160]})", flush=True)
                continue
            cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
            validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
            eos = valid = 0
            for line in run.stdout.split("\n"):
                if not line:
                    continue
                walk = json.loads(line)
                totals["walks"] += 1
                if walk["end"] != "eos":
                    continue
                eos += 1
                errors = list(validator.iter_errors(json.loads(walk["text"])))
                if errors:
                    totals["invalid"] += 1
                    print(f"{file.stem}: INVALID walk (seed {walk.get('seed', '?')}): "
                          f"{walk['text'][:300]!r}: {errors[0].message[:200]}")
                else:
                    valid += 1
            totals["eos"] += eos
            totals["valid"] += valid
            print(f"{file.stem}: {eos} of {args.walks} walks ended by EOS, {valid} valid",
                  flush=True)
    print(f"total: {totals['schemas']} schemas, {totals['refused']} refused; "
          f"{totals['walks']} walks, {totals['eos']} ended by EOS: {totals['valid']} valid, "
          f"{totals['invalid']} invalid")
    return 1 if totals["invalid"] else 0


if __name__ == "__main__":
    sys.exit(main())
