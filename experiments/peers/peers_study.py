#!/usr/bin/env python3
"""The peer engines beside glrmask on the same token ids: latency and mask exactness.

Each MaskBench dev schema's valid instances are written as compact JSON, encoded once by the
tokenizer (glrmask.Tokenizer.encode, the same ids for every engine) and teacher-forced through
every engine. At every step:
  - the engine's mask is filled (timed) and the step's token accepted (timed);
  - the mask is compared bit for bit with glrmask's oracle (the brute-force reference, computed
    once per step in a pass of its own and stored in the run's folder): tokens the engine allows
    and the oracle forbids are "wrongly allowed", the reverse "wrongly forbidden".
An engine that refuses a schema, errors, or rejects a token of a valid text is counted and named.

Each engine runs in a process of its own (--engine), one after the other, so no engine's caches
or threads disturb another's timings; a final step merges the passes into summary.md and
steps.csv. The peers are pinned in experiments/peers/requirements.txt and installed by
scripts/setup_peers.sh into .cache/peers/venv (docs/experiments.md, "Peers").

    GLRMASK_DATA=... PYTHONPATH=build/api/python .cache/peers/venv/bin/python \\
        experiments/peers/peers_study.py [--size small|full] [--tokenizer llama3] [--out DIR]

How each peer is given the schema (the conversions this comparison rests on):
  - xgrammar: GrammarCompiler.compile_json_schema(schema, any_whitespace=False, separators=(",", ":"),
                                                 strict_mode=False);
  - llguidance: LLMatcher.grammar_from_json_schema(schema, {"whitespace_flexible": False});
  - outlines-core: json_schema.build_regex_from_schema(schema, whitespace_pattern="") then Index;
  - glrmask and its oracle: Constraint.from_json_schema(schema, whitespace="compact",
    assert_format=True) (the peers assert "format"; glrmask's default treats it as an annotation).
Every engine is thus asked for the compact texts; any other difference is a finding.
With --workload syncode: SynCode's JSON, Java, SQL and Go Lark grammars and programs; llguidance
gets the Lark text without priorities (without_priorities), the others cannot express them.
"""
import argparse
import csv
import json
import os
import pathlib
import platform
import re
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

import glrmask

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
ENGINES = ["oracle", "glrmask", "xgrammar", "llguidance", "outlines_core"]
SIZES = {"small": (5, 2), "full": (60, 3)}  # (schemas, instances per schema)


def data_dir():
    folder = os.environ.get("GLRMASK_DATA") or os.environ.get("GLRMASK_DATA_DIR")
    if not folder:
        sys.exit("peers_study: set GLRMASK_DATA to the data folder (it holds jsonschema/maskbench-dev)")
    return pathlib.Path(folder)


def workload(size):
    """The schemas and texts: the first schemas (by name) with valid instances; every engine sees
    exactly this list. Each item: (name, spec, texts), spec {"kind": "json_schema", "text": ...}."""
    count, per_schema = SIZES[size]
    folder = data_dir() / "jsonschema" / "maskbench-dev"
    items = []
    for path in sorted(folder.glob("*.json")):
        entry = json.loads(path.read_text())
        texts = [json.dumps(v, separators=(",", ":"), ensure_ascii=False) for v in entry["valid"]]
        texts = [t for t in texts if len(t) <= 400][:per_schema]
        if texts:
            items.append((path.stem, {"kind": "json_schema", "text": json.dumps(entry["schema"])}, texts))
        if len(items) == count:
            break
    return items


# SynCode's grammars and the programs they parse (each folder's parses.txt), as the C++ studies
# read them (experiments/support/corpus.cpp): Lark's conflict policy, Go's EOS skippable (SynCode
# lets the automatic semicolon be left out). Python is not here: no peer has its indenter.
GRAMMARS = {"json": [], "java": [], "sql": [], "go": ["EOS"]}
GRAMMAR_TEXTS = {"small": 2, "full": 8}
MAX_STEPS = {"small": 120, "full": 600}  # teacher-forced steps per program (a prefix of long ones)


def grammar_workload(size):
    """(name, spec, texts) per SynCode grammar; spec {"kind": "lark", "text", "skippable"}."""
    data = data_dir()
    count = GRAMMAR_TEXTS[size]
    items = []
    for name, skippable in GRAMMARS.items():
        grammar = (data / "grammars" / "syncode" / f"{name}_grammar.lark").read_text()
        if name == "json":
            texts = [text for _, _, many in workload(size) for text in many][:count * 4]
        else:
            folder = data / "programs" / name
            texts = []
            queries = (folder / "queries.sql").read_text().splitlines() if name == "sql" else []
            for entry in (folder / "parses.txt").read_text().split():
                if name == "sql":
                    texts.append(queries[int(entry.split(":")[1]) - 1])
                else:
                    texts.append((folder / entry).read_text())
                if len(texts) == (count * 4 if name == "sql" else count):
                    break
        items.append((f"syncode-{name}", {"kind": "lark", "text": grammar, "skippable": skippable}, texts))
    return items


def without_priorities(grammar):
    """SynCode's Lark grammars with the `.N` of rule and terminal names removed, for llguidance
    ("priority not supported yet"). A rule's priority only ranks the parses of an ambiguous text in
    Lark, it does not change the language. A terminal's priority chooses between lexemes that
    match the same text; llguidance's lexer keeps every lexeme the parser allows at once, so it
    has no use for them, but the language it then accepts can differ from Lark's where they
    mattered: such steps show up as differences from the oracle, which follows Lark."""
    return re.sub(r"^(\??[A-Za-z_][A-Za-z0-9_]*)\.-?\d+(\s*:)", r"\1\2", grammar, flags=re.MULTILINE)


class NotExpressible(Exception):
    """The peer has no front end for the workload's grammar format (counted apart from refusals)."""


def tokenizer_file(name):
    path = ROOT / ".cache" / "tokenizers" / name / "package" / "models" / "tokenizer.json"
    if not path.exists():
        sys.exit(f"peers_study: {path.relative_to(ROOT)} is missing (scripts/setup.sh fetches it)")
    return path


class GlrmaskEngine:
    def __init__(self, tokenizer, engine):
        self.tokenizer = tokenizer
        self.engine = engine
        self.bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)

    def compile(self, spec):
        if spec["kind"] == "lark":
            grammar = glrmask.Grammar.from_source("lark", spec["text"], policy="lark",
                                                  skippable=spec["skippable"])
            return glrmask.Constraint.compile(grammar, self.tokenizer, engine=self.engine)
        return glrmask.Constraint.from_json_schema(spec["text"], self.tokenizer, whitespace="compact",
                                                   assert_format=True, engine=self.engine)

    def start(self, constraint):
        return glrmask.Matcher(constraint)

    def fill(self, matcher):
        matcher.fill_next_token_bitmask(self.bitmask)
        return self.bitmask

    def accept(self, matcher, token):
        return matcher.accept_token(token)


class XGrammarEngine:
    def __init__(self, hf_tokenizer, vocab_size, stop_ids):
        import torch
        import xgrammar
        self.xgr = xgrammar
        info = xgrammar.TokenizerInfo.from_huggingface(hf_tokenizer, vocab_size=vocab_size,
                                                       stop_token_ids=stop_ids)
        self.compiler = xgrammar.GrammarCompiler(info, max_threads=1, cache_enabled=False)
        self.bitmask = xgrammar.allocate_token_bitmask(1, vocab_size)
        torch.set_num_threads(1)

    def compile(self, spec):
        if spec["kind"] != "json_schema":
            raise NotExpressible("no Lark front end (its EBNF would need a converted grammar)")
        return self.compiler.compile_json_schema(spec["text"], any_whitespace=False, separators=(",", ":"),
                                                 strict_mode=False)

    def start(self, compiled):
        return self.xgr.GrammarMatcher(compiled)

    def fill(self, matcher):
        matcher.fill_next_token_bitmask(self.bitmask)
        return self.bitmask.numpy()

    def accept(self, matcher, token):
        return matcher.accept_token(token)


class LLGuidanceEngine:
    def __init__(self, hf_tokenizer, vocab_size, stop_ids):
        import llguidance
        import llguidance.hf
        import llguidance.numpy
        self.llg = llguidance
        self.tokenizer = llguidance.hf.from_tokenizer(hf_tokenizer, n_vocab=vocab_size,
                                                      eos_token=stop_ids[0])
        self.fill_into = llguidance.numpy.fill_next_token_bitmask
        self.bitmask = llguidance.numpy.allocate_token_bitmask(1, vocab_size)

    def compile(self, spec):
        if spec["kind"] == "lark":
            if spec["skippable"]:
                raise NotExpressible("no skippable terminals (SynCode's optional Go EOS)")
            grammar = self.llg.LLMatcher.grammar_from_lark(without_priorities(spec["text"]))
            error = self.llg.LLMatcher.validate_grammar(grammar)
            if error:
                raise RuntimeError(error)
        else:
            grammar = self.llg.LLMatcher.grammar_from_json_schema(
                spec["text"], {"whitespace_flexible": False})
        self.start(grammar)  # llguidance builds its parser here: part of the compile
        return grammar

    def start(self, grammar):
        matcher = self.llg.LLMatcher(self.tokenizer, grammar)
        if matcher.is_error():
            raise RuntimeError(matcher.get_error())
        return matcher

    def fill(self, matcher):
        self.fill_into(matcher, self.bitmask, 0)
        if matcher.is_error():
            raise RuntimeError(matcher.get_error())
        return self.bitmask

    def accept(self, matcher, token):
        return matcher.consume_token(token)


class OutlinesCoreEngine:
    def __init__(self, tokenizer, stop_ids):
        import outlines_core
        from outlines_core import json_schema
        self.oc = outlines_core
        self.to_regex = json_schema.build_regex_from_schema
        # The vocabulary outlines-core is given: every ordinary token's bytes (special tokens other
        # than the stop id are never allowed by glrmask either).
        pieces = {}
        for token in range(tokenizer.vocab_size):
            if tokenizer.is_special(token) or token in stop_ids:
                continue
            pieces.setdefault(tokenizer.token_bytes(token), []).append(token)
        self.vocabulary = outlines_core.Vocabulary(stop_ids[0], pieces)
        self.words = (tokenizer.vocab_size + 31) // 32
        self.bitmask = np.zeros((1, self.words), dtype=np.int32)

    def compile(self, spec):
        if spec["kind"] != "json_schema":
            raise NotExpressible("regular expressions only")
        return self.oc.Index(self.to_regex(spec["text"], whitespace_pattern=""), self.vocabulary)

    def start(self, index):
        return self.oc.Guide(index)

    def fill(self, guide):
        self.bitmask[:] = 0
        guide.write_mask_into(self.bitmask.ctypes.data, self.bitmask.size, 4)
        return self.bitmask

    def accept(self, guide, token):
        if token == self.vocabulary.get_eos_token_id():
            return guide.is_finished()  # the stop token ends the text; Guide.advance refuses it
        guide.advance(token)
        return True


def make_engine(name, tokenizer, hf_tokenizer):
    stops = list(tokenizer.stop_ids)
    if name == "oracle":
        return GlrmaskEngine(tokenizer, "oracle")
    if name == "glrmask":
        return GlrmaskEngine(tokenizer, "auto")
    if name == "xgrammar":
        return XGrammarEngine(hf_tokenizer, tokenizer.vocab_size, stops)
    if name == "llguidance":
        return LLGuidanceEngine(hf_tokenizer, tokenizer.vocab_size, stops)
    if name == "outlines_core":
        return OutlinesCoreEngine(tokenizer, stops)
    raise SystemExit(f"peers_study: unknown engine {name!r} (engines: {', '.join(ENGINES)})")


def ids_of(row, vocab_size):
    bits = np.unpackbits(np.ascontiguousarray(row).view(np.uint8), bitorder="little")[:vocab_size]
    return bits


def rss_mib():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def run_pass(args):
    """One engine over the whole workload; writes pass-ENGINE.json to --out."""
    from transformers import AutoTokenizer
    out = pathlib.Path(args.out)
    path = tokenizer_file(args.tokenizer)
    tokenizer = glrmask.Tokenizer.load(args.tokenizer)
    # The folder's tokenizer.json with its tokenizer_config.json, as a serving stack loads it (the
    # peers learn the special tokens from it); local files only.
    hf_tokenizer = AutoTokenizer.from_pretrained(str(path.parent), local_files_only=True)
    engine = make_engine(args.engine, tokenizer, hf_tokenizer)
    vocab = tokenizer.vocab_size
    oracle = None if args.engine == "oracle" else np.load(out / "oracle_masks.npz")
    stored = {}
    special = {t for t in range(vocab) if tokenizer.is_special(t)}
    result = {"engine": args.engine, "schemas": [], "steps": []}
    syncode = getattr(args, "workload", "maskbench") == "syncode"
    items = grammar_workload(args.size) if syncode else workload(args.size)
    limit = MAX_STEPS[args.size] if syncode else None
    for name, schema, texts in items:
        record = {"schema": name, "status": "ok", "error": "", "compile_s": None, "rss_mib": None}
        result["schemas"].append(record)
        before = rss_mib()
        try:
            start = time.perf_counter()
            compiled = engine.compile(schema)
            record["compile_s"] = time.perf_counter() - start
            record["rss_mib"] = rss_mib() - before
        except NotExpressible as error:
            record["status"], record["error"] = "not expressible", str(error)
            continue
        except Exception as error:  # a refusal is a finding: counted and named
            record["status"], record["error"] = "refused", f"{type(error).__name__}: {error}"[:300]
            continue
        for index, text in enumerate(texts):
            ids = tokenizer.encode(text)
            ids = ids[:limit] if limit and len(ids) > limit else ids + [tokenizer.stop_ids[0]]
            matcher = engine.start(compiled)
            for step, token in enumerate(ids):
                try:
                    start = time.perf_counter_ns()
                    row = engine.fill(matcher)
                    fill_ns = time.perf_counter_ns() - start
                    row = row.reshape(-1)[: (vocab + 31) // 32].copy()
                    start = time.perf_counter_ns()
                    accepted = engine.accept(matcher, token)
                    accept_ns = time.perf_counter_ns() - start
                except Exception as error:
                    record["status"], record["error"] = "error", f"step {step}: {error}"[:300]
                    break
                key = f"{name}|{index}|{step}"
                entry = {"schema": name, "text": index, "step": step, "token": token,
                         "fill_ns": fill_ns, "accept_ns": accept_ns, "accepted": bool(accepted)}
                if oracle is None:
                    stored[key] = row
                elif key in oracle:
                    mine, truth = ids_of(row, vocab), ids_of(oracle[key], vocab)
                    allowed = np.flatnonzero(mine & ~truth)
                    forbidden = np.flatnonzero(truth & ~mine)
                    entry["wrongly_allowed"] = int(allowed.size)
                    entry["wrongly_allowed_ordinary"] = sum(1 for t in allowed if t not in special)
                    entry["wrongly_forbidden"] = int(forbidden.size)
                    entry["examples"] = [int(t) for t in list(allowed[:3]) + list(forbidden[:3])]
                result["steps"].append(entry)
                if not accepted:
                    record["status"], record["error"] = "rejected", f"text {index} step {step} token {token}"
                    break
    if oracle is None:
        np.savez_compressed(out / "oracle_masks.npz", **stored)
    result["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    (out / f"pass-{args.engine}.json").write_text(json.dumps(result))


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def summarize(args, engines, versions):
    out = pathlib.Path(args.out)
    tokenizer = glrmask.Tokenizer.load(args.tokenizer)
    title = "SynCode's grammars" if args.workload == "syncode" else "MaskBench dev"
    lines = [f"# Peers on {title}, {args.tokenizer}, size {args.size}", "",
             f"Machine: {cpu_model()}, {os.cpu_count()} cores; "
             f"load average (1, 5, 15 min) at the start: {args.load}.", "",
             "Versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()), "",
             "| engine | compiled | not expressible | refused | errors | rejected a valid token | steps |"
             " fill mean µs | p50 | p90 | p99 | p99.9 | max | accept mean µs | compile p50 ms |"
             " compile max ms | RSS growth of a compile, max MiB | process peak RSS MiB | steps wrongly allowing | of them ordinary tokens | steps wrongly forbidding |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    details = []
    with open(out / "steps.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["engine", "schema", "text", "step", "token", "fill_ns", "accept_ns",
                         "wrongly_allowed", "wrongly_forbidden"])
        for name in engines:
            data = json.loads((out / f"pass-{name}.json").read_text())
            steps = data["steps"]
            fills = [s["fill_ns"] / 1000 for s in steps] or [float("nan")]
            accepts = [s["accept_ns"] / 1000 for s in steps] or [float("nan")]
            compiles = [r["compile_s"] * 1000 for r in data["schemas"] if r["compile_s"] is not None] or [float("nan")]
            growth = [r["rss_mib"] for r in data["schemas"] if r["rss_mib"] is not None] or [float("nan")]
            by = lambda status: [r for r in data["schemas"] if r["status"] == status]
            allow = sum(1 for s in steps if s.get("wrongly_allowed", 0))
            allow_ordinary = sum(1 for s in steps if s.get("wrongly_allowed_ordinary", 0))
            forbid = sum(1 for s in steps if s.get("wrongly_forbidden", 0))
            compiled = len(data["schemas"]) - len(by("refused")) - len(by("not expressible"))
            lines.append(
                f"| {name} | {compiled}/{len(data['schemas'])} | {len(by('not expressible'))} | "
                f"{len(by('refused'))} | "
                f"{len(by('error'))} | {len(by('rejected'))} | {len(steps)} | "
                f"{statistics.fmean(fills):.1f} | {percentile(fills, .5):.1f} | "
                f"{percentile(fills, .9):.1f} | {percentile(fills, .99):.1f} | "
                f"{percentile(fills, .999):.1f} | {max(fills):.1f} | {statistics.fmean(accepts):.1f} | "
                f"{percentile(compiles, .5):.1f} | {max(compiles):.1f} | {max(growth):.1f} | "
                f"{data['max_rss_mib']:.0f} | "
                f"{'—' if name == 'oracle' else allow} | {'—' if name == 'oracle' else allow_ordinary} | "
                f"{'—' if name == 'oracle' else forbid} |")
            for record in data["schemas"]:
                if record["status"] != "ok":
                    details.append(f"- {name}, {record['schema']}: {record['status']}: {record['error']}")
            worst = sorted((s for s in steps if s.get("wrongly_allowed", 0) or s.get("wrongly_forbidden", 0)),
                           key=lambda s: -(s["wrongly_allowed"] + s["wrongly_forbidden"]))[:5]
            for s in worst:
                shown = ", ".join(repr(tokenizer.token_bytes(t))[1:] for t in s["examples"])
                details.append(f"- {name}, {s['schema']} text {s['text']} step {s['step']}: "
                               f"{s['wrongly_allowed']} wrongly allowed, {s['wrongly_forbidden']} "
                               f"wrongly forbidden (e.g. {shown})")
            for s in steps:
                writer.writerow([name, s["schema"], s["text"], s["step"], s["token"], s["fill_ns"],
                                 s["accept_ns"], s.get("wrongly_allowed", ""), s.get("wrongly_forbidden", "")])
    lines += ["", "fill = the engine's next-token mask into a bitmask (one row); accept = the step's "
              "token. Wrongly allowing/forbidding: steps whose mask differs from glrmask's oracle "
              "(the brute-force reference) in that direction; \"of them ordinary tokens\": steps "
              "wrongly allowing a token that is not a special token of the tokenizer (allowing a "
              "special token such as <|reserved_special_token_0|> inside a string is a wrong mask "
              "too, but one a serving stack may also filter elsewhere).", "", "## Refusals, errors and "
              "differing steps (worst five per engine)", ""] + (details or ["- none"])
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="small")
    parser.add_argument("--tokenizer", default="llama3")
    parser.add_argument("--workload", choices=["maskbench", "syncode"], default="maskbench",
                        help="MaskBench dev schemas, or SynCode's JSON, Java, SQL and Go grammars "
                             "with programs of the data folder")
    parser.add_argument("--engines", default=",".join(ENGINES[1:]))
    parser.add_argument("--engine", help=argparse.SUPPRESS)  # one pass, in its own process
    parser.add_argument("--out")
    parser.add_argument("--load", default="", help=argparse.SUPPRESS)
    parser.add_argument("--summarize", action="store_true",
                        help="only rewrite summary.md and steps.csv from the passes in --out")
    args = parser.parse_args()
    args.out = args.out or str(ROOT / "experiments" / "results" / "peers" / f"{args.size}-{args.tokenizer}" + ("-syncode" if args.workload == "syncode" else ""))
    if args.engine:
        return run_pass(args)
    pathlib.Path(args.out).mkdir(parents=True, exist_ok=True)
    args.load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    engines = ["oracle"] + [e for e in args.engines.split(",") if e and e != "oracle"]
    load_file = pathlib.Path(args.out) / "load.txt"
    if args.summarize:
        args.load = load_file.read_text().strip() if load_file.exists() else "not recorded"
    else:
        load_file.write_text(args.load + "\n")
    versions = {"glrmask": glrmask.version()}
    for module, label in (("xgrammar", "xgrammar"), ("llguidance", "llguidance"), ("outlines_core", "outlines_core")):
        try:
            from importlib.metadata import version
            versions[label] = version(module.replace("_", "-"))
        except Exception:
            versions[label] = "not installed"
    for name in [] if args.summarize else engines:
        print(f"[peers] pass {name}", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, __file__, "--engine", name, "--size", args.size,
                        "--tokenizer", args.tokenizer, "--workload", args.workload, "--out", args.out],
                       check=True)
    summarize(args, engines, versions)


if __name__ == "__main__":
    main()
