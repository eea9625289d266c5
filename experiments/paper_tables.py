#!/usr/bin/env python3
"""Regenerates the tables in papers/*.md that put published numbers beside ours.

Published numbers come from papers/reference/*.csv (transcribed from the papers); ours come from
the study results under experiments/results/<study>/<size>/ (the full size when present, else
the small one). Each generated table sits between
    <!-- BEGIN generated:NAME -->  and  <!-- END generated:NAME -->
in a papers/*.md file and is replaced wholesale; nothing outside the markers is touched.

    python3 experiments/paper_tables.py [--size small|full] [--check]

--check exits with 1 (and names the files) when a report is not up to date with the results.
"""
import argparse
import csv
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "experiments" / "results"
REFERENCE = ROOT / "papers" / "reference"

# The papers' model names and the tokenizers we measure for them. Qwen-2 / Qwen2.5 are measured
# with the Qwen3 tokenizer, the closest one the setup cache holds (papers/*.md say so).
TOKENIZER_OF = {"Llama": "llama2", "Llama-3": "llama3", "Llama 3": "llama3", "Qwen-2": "qwen3",
                "Qwen2.5": "qwen3", "Gemma 3": "gemma3", "Llama-3B": "llama3", "Qwen-4B": "qwen3",
                "GPT-20B": "gptoss"}


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def result_dir(study, size):
    sizes = [size] if size else ["full", "small"]
    for s in sizes:
        d = RESULTS / study / s
        if (d / "header.txt").exists():
            return d
    return None


def header(d):
    fields = {}
    for line in (d / "header.txt").read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(": ")
        fields[key] = value
    return fields


def machine_line(d):
    h = header(d)
    return (f"{h.get('cpu', '?')}, {h.get('cores', '?')} cores, {h.get('memory', '?')}; "
            f"{h.get('date', '?')}, commit {h.get('commit', '?')}, "
            f"load average at start {h.get('load average at start', '?')}; "
            f"`{d.relative_to(ROOT)}`")


def table(columns, rows):
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def missing(study):
    return (f"_No results yet: run `experiments/run {study}` and then "
            f"`python3 experiments/paper_tables.py`._")


def gg_table1(size):
    ref = read_csv(REFERENCE / "000_table1.csv")
    d = result_dir("preprocessing", size)
    if d is None:
        return missing("preprocessing")
    ours = read_csv(d / "preprocessing.csv")
    engines = list(dict.fromkeys(r["engine"] for r in ours))
    by_key = {(r["tokenizer"], r["grammar"], r["engine"]): r for r in ours}
    columns = ["model (ours)", "grammar", "GreatGramma offline s", "SynCode offline s",
               "GreatGramma online ms", "SynCode online ms"]
    for e in engines:
        columns += [f"{e} offline s", f"{e} online ms"]
    rows = []
    for r in ref:
        tok = TOKENIZER_OF[r["model"]]
        row = [f"{r['model']} ({tok})", r["grammar"], r["greatgramma_offline_s"],
               r["syncode_offline_s"], r["greatgramma_online_ms"], r["syncode_online_ms"]]
        for e in engines:
            o = by_key.get((tok, r["grammar"].lower(), e))
            if o is None:
                row += ["—", "—"]
            elif o["status"] != "ok":
                row += ["refused", "refused"]
            else:
                row += [f"{float(o['offline_s']):.2f}", f"{float(o['online_ms_per_token']):.3f}"]
        rows.append(row)
    notes = sorted({f"{r['grammar']} / {r['engine']}: {r['note']}" for r in ours if r["note"]})
    text = table(columns, rows) + f"\n\nOurs: {machine_line(d)}."
    if notes:
        text += "\n\nRefusals (from `preprocessing.csv`):\n\n" + "\n".join(
            f"- {n}" for n in notes[:6])
    return text


def psc_table1(size):
    ref = read_csv(REFERENCE / "001_table1.csv")
    ours = {}  # (tokenizer, grammar, engine) -> mean µs
    sources = []
    for study, csv_name in (("vocab_scaling", "vocab_scaling.csv"), ("tail_latency", "summary.csv")):
        d = result_dir(study, size)
        if d is None:
            continue
        sources.append(machine_line(d))
        for r in read_csv(d / csv_name):
            ours[(r["tokenizer"], r["grammar"], r["engine"])] = r["mask_mean"]
    if not sources:
        return missing("tail_latency")
    engines = sorted({k[2] for k in ours})
    columns = ["model (ours)", "grammar", "PSC µs", "LLGuidance µs", "GreatGramma µs"]
    columns += [f"{e} µs (ours)" for e in engines]
    rows = []
    models = list(dict.fromkeys(r["model"] for r in ref))
    for model in models:
        tok = TOKENIZER_OF[model]
        by_method = {r["method"]: r for r in ref if r["model"] == model}
        for grammar in ("Java", "Go", "SQL", "JSON"):
            row = [f"{model} ({tok})", grammar, by_method["PSC"][grammar],
                   by_method["LLGuidance"][grammar], by_method["GreatGramma"][grammar]]
            row += [ours.get((tok, grammar.lower(), e), "—") for e in engines]
            rows.append(row)
    return (table(columns, rows) + "\n\nOurs: mean get_mask per teacher-forced step "
            "(tail_latency where it measured the pair, else vocab_scaling); " +
            "; ".join(sources) + ".")


def psc_table3(size):
    ref = read_csv(REFERENCE / "001_table3.csv")
    d = result_dir("preprocessing", size)
    if d is None:
        return missing("preprocessing")
    ours = read_csv(d / "preprocessing.csv")
    by_key = {(r["tokenizer"], r["grammar"], r["engine"]): r for r in ours}
    engines = [e for e in dict.fromkeys(r["engine"] for r in ours) if e != "oracle"]
    columns = ["model (ours)", "grammar", "PSC s", "PSC GiB"]
    for e in engines:
        columns += [f"{e} s", f"{e} GiB"]
    rows = []
    for model in dict.fromkeys(r["model"] for r in ref):
        tok = TOKENIZER_OF[model]
        time = next(r for r in ref if r["model"] == model and r["metric"] == "time_s")
        mem = next(r for r in ref if r["model"] == model and r["metric"] == "memory_gib")
        for grammar in ("Java", "Go", "SQL", "JSON"):
            row = [f"{model} ({tok})", grammar, time[grammar], mem[grammar]]
            for e in engines:
                o = by_key.get((tok, grammar.lower(), e))
                if o is None:
                    row += ["—", "—"]
                elif o["status"] != "ok":
                    row += ["refused", "refused"]
                else:
                    row += [f"{float(o['offline_s']):.2f}", f"{float(o['peak_mib']) / 1024:.2f}"]
            rows.append(row)
    return table(columns, rows) + f"\n\nOurs: {machine_line(d)}."


def tail_table(size):
    d = result_dir("tail_latency", size)
    if d is None:
        return missing("tail_latency")
    keep = ["grammar", "tokenizer", "engine", "steps", "mask_mean", "mask_p50", "mask_p99",
            "mask_p99.9", "mask_max", "commit_p99", "hyphen_run_steps"]
    rows = [[r[k] for k in keep] for r in read_csv(d / "summary.csv")]
    return table(keep, rows) + f"\n\nµs. Ours: {machine_line(d)}."


def exactness_table(size):
    d = result_dir("exactness", size)
    if d is None:
        return missing("exactness")
    keep = ["grammar", "tokenizer", "engine", "reference", "programs", "steps",
            "mismatch_steps", "reference_rejections", "steps_per_s"]
    # Runs before --reference existed compared with the oracle and named the column after it.
    rows = [[r.get(k, r.get("oracle_rejections") if k == "reference_rejections" else "oracle")
             for k in keep] for r in read_csv(d / "exactness.csv")]
    return table(keep, rows) + f"\n\nOurs: {machine_line(d)}."


def cfgzip_table1(size):
    ref = read_csv(REFERENCE / "002_table1.csv")
    d = result_dir("token_classes", size)
    if d is None:
        return missing("token_classes")
    ours = read_csv(d / "token_classes.csv")
    by_key = {(r["tokenizer"], r["grammar"]): r for r in ours}
    grammars = list(dict.fromkeys(r["grammar"] for r in ours))

    theirs = ["JSON", "XML", "C++", "Bython"]
    classes_rows, time_rows = [], []
    for r in ref:
        tok = TOKENIZER_OF[r["model"]]
        mine = {g: by_key.get((tok, g)) for g in grammars}
        vocabulary = next((m["vocabulary"] for m in mine.values() if m), "—")
        head = [f"{r['model']} ({tok})", f"{r['vocabulary']} / {vocabulary}"]
        classes_rows.append(head + [r[f"{g}_classes"] for g in ("json", "xml", "cpp", "bython")] + [
            "—" if mine[g] is None else "refused" if not mine[g]["classes"] else
            f"{mine[g]['classes']} / {mine[g]['lexer_classes']}" for g in grammars])
        time_rows.append(head + [r[f"{g}_time"] for g in ("json", "xml", "cpp", "bython")] + [
            "—" if mine[g] is None else "refused" if not mine[g]["classes"] else
            f"{mine[g]['classes_cpu_s']} + {mine[g]['compile_cpu_s']}" for g in grammars])
    classes_columns = ["model (ours)", "V theirs / ours"] + theirs + [
        f"{g} (ours: mask / lexer)" for g in grammars]
    time_columns = ["model (ours)", "V theirs / ours"] + theirs + [f"{g} (ours)" for g in grammars]
    keep = ["grammar", "tokenizer", "vocabulary", "parser_weights", "classes", "lexer_classes",
            "compression", "largest_class", "singletons", "never_allowed", "classes_cpu_s",
            "compile_cpu_s"]
    full = [[r[k] for k in keep] if r["classes"] else
            [r["grammar"], r["tokenizer"], r["vocabulary"], "—", "refused"] + ["—"] * (len(keep) - 5)
            for r in ours]
    return ("Classes (theirs: CFGzip's displacement classes of XGrammar2's grammars; ours, for "
            "SynCode's grammars: mask classes of the wfa engine's Parser DWA weights / lexer "
            "classes of the Terminal DWA's weights — different grammars and relations, see "
            "below):\n\n" + table(classes_columns, classes_rows) +
            "\n\nTime (theirs: as printed, unit not in the extracted text, 16 threads; ours: "
            "class computation CPU s + compile CPU s, the compile's Terminal DWA part on 2 "
            "threads):\n\n" + table(time_columns, time_rows) +
            "\n\nAll our rows:\n\n" + table(keep, full) +
            "\n\nThe largest mask classes of two or more tokens, as the study lists them (up "
            "to eight shortest members; the never-allowed class left out):\n\n" +
            table(["grammar", "tokenizer", "class_size", "shortest_members"],
                  [[r["grammar"], r["tokenizer"], r["class_size"],
                    r["shortest_members"].replace("|", "\\|")]
                   for r in read_csv(d / "examples.csv")]) +
            f"\n\nOurs: {machine_line(d)}.")


GENERATORS = {
    "000-table1": gg_table1,
    "001-table1": psc_table1,
    "001-table3": psc_table3,
    "tail-latency": tail_table,
    "exactness": exactness_table,
    "002-table1": cfgzip_table1,
}

BLOCK = re.compile(r"(<!-- BEGIN generated:([\w-]+) -->\n)(.*?)(<!-- END generated:\2 -->)",
                   re.DOTALL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=["small", "full"])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale = []
    for md in sorted((ROOT / "papers").glob("*.md")):
        text = md.read_text(encoding="utf-8")

        def replace(m):
            name = m.group(2)
            if name not in GENERATORS:
                sys.exit(f"{md.relative_to(ROOT)}: unknown generated block '{name}'")
            return m.group(1) + GENERATORS[name](args.size) + "\n" + m.group(4)

        new = BLOCK.sub(replace, text)
        if new != text:
            stale.append(str(md.relative_to(ROOT)))
            if not args.check:
                md.write_text(new, encoding="utf-8")
    if args.check and stale:
        print("out of date: " + ", ".join(stale))
        return 1
    for name in stale:
        print(f"updated {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
