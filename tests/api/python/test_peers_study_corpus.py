"""experiments/peers/peers_study.py, the harness that puts the peer engines beside glrmask, run
with glrmask alone on the small MaskBench workload with Llama-3: glrmask's masks equal the
oracle's at every step, and the comparison catches a single differing bit (an oracle row altered
by one token is reported as exactly one step wrongly forbidding that token). The peers themselves
are not installed by the test command (scripts/setup_peers.sh). Needs the data folder and the
tokenizer cache; skipped (loudly) without them.
"""
import argparse
import importlib.util
import json
import os
import pathlib

import numpy as np
import pytest

from extras import need

need("transformers")

SOURCE = pathlib.Path(__file__).resolve().parents[3]
DATA = pathlib.Path(os.environ.get("GLRMASK_DATA", ""))  # set by CTest from the build's setting


def load_study():
    spec = importlib.util.spec_from_file_location(
        "peers_study", SOURCE / "experiments" / "peers" / "peers_study.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(study, engine, out):
    study.run_pass(argparse.Namespace(engine=engine, size="small", tokenizer="llama3", out=str(out)))
    return json.loads((out / f"pass-{engine}.json").read_text())


def test_glrmask_equals_the_oracle_and_one_altered_bit_is_found(tmp_path, monkeypatch):
    if not (DATA / "jsonschema" / "maskbench-dev").is_dir():
        pytest.skip("*** the data folder is absent (GLRMASK_DATA): the peers harness not run ***")
    if not (SOURCE / ".cache" / "tokenizers" / "llama3").is_dir():
        pytest.skip("*** the tokenizer cache is absent (scripts/setup.sh): the peers harness not run ***")
    monkeypatch.setenv("GLRMASK_DATA", str(DATA))
    study = load_study()
    oracle = run(study, "oracle", tmp_path)
    assert [r["status"] for r in oracle["schemas"]] == ["ok"] * 5
    assert len(oracle["steps"]) > 300

    mine = run(study, "glrmask", tmp_path)
    assert [r["status"] for r in mine["schemas"]] == ["ok"] * 5
    assert len(mine["steps"]) == len(oracle["steps"])
    assert all(s["accepted"] for s in mine["steps"])
    assert sum(s["wrongly_allowed"] + s["wrongly_forbidden"] for s in mine["steps"]) == 0

    # One token the oracle forbids at one step, turned on in the stored oracle row.
    masks = dict(np.load(tmp_path / "oracle_masks.npz"))
    key = sorted(masks)[7]
    row = masks[key].copy()
    bits = np.unpackbits(row.view(np.uint8), bitorder="little")
    token = int(np.flatnonzero(bits == 0)[0])
    bits[token] = 1
    masks[key] = np.packbits(bits, bitorder="little").view(row.dtype)
    np.savez_compressed(tmp_path / "oracle_masks.npz", **masks)
    altered = run(study, "glrmask", tmp_path)
    differing = [s for s in altered["steps"] if s["wrongly_allowed"] or s["wrongly_forbidden"]]
    assert len(differing) == 1
    schema, text, step = key.split("|")
    assert (differing[0]["schema"], differing[0]["text"], differing[0]["step"]) == (schema, int(text), int(step))
    assert differing[0]["wrongly_forbidden"] == 1 and differing[0]["examples"] == [token]
