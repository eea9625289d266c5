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
                offline = f"{float(o['offline_s']):.2f}"
                if o.get("offline_cpu_s"):  # wall (CPU): on a loaded machine CPU is the fair one
                    offline += f" ({float(o['offline_cpu_s']):.2f} CPU)"
                row += [offline, f"{float(o['online_ms_per_token']):.3f}"]
        rows.append(row)
    notes = sorted({f"{r['grammar']} / {r['engine']}: {r['note']}" for r in ours if r["note"]})
    text = table(columns, rows) + f"\n\nOurs: {machine_line(d)}."
    if notes:
        text += "\n\nRefusals (from `preprocessing.csv`):\n\n" + "\n".join(
            f"- {n}" for n in notes[:6])
    return text


# PSC's grammar columns and ours (psc_tables: "jsonschema" = one grammar per MaskBench schema).
PSC_GRAMMARS = (("Java", "java"), ("Go", "go"), ("SQL", "sql"), ("JSON", "jsonschema"))


def psc_results(size):
    d = result_dir("psc_tables", size)
    return d, (None if d is None else machine_line(d))


def psc_table1(size):
    ref = read_csv(REFERENCE / "001_table1.csv")
    d, source = psc_results(size)
    if d is None:
        return missing("psc_tables")
    ours = {(r["tokenizer"], r["grammar"], r["engine"]): r for r in read_csv(d / "overhead.csv")}
    engines = list(dict.fromkeys(r[2] for r in ours))
    columns = ["model (ours)", "grammar", "PSC µs", "LLGuidance µs", "GreatGramma µs"]
    columns += [f"{e} µs (ours)" for e in engines]
    rows = []
    for model in dict.fromkeys(r["model"] for r in ref):
        tok = TOKENIZER_OF[model]
        by_method = {r["method"]: r for r in ref if r["model"] == model}
        for grammar, ours_name in PSC_GRAMMARS:
            row = [f"{model} ({tok})", grammar, by_method["PSC"][grammar],
                   by_method["LLGuidance"][grammar], by_method["GreatGramma"][grammar]]
            for e in engines:
                o = ours.get((tok, ours_name, e))
                if o is None or o["units"] == "0":
                    row.append("—")
                elif not o["mask_mean"]:
                    row.append("X")
                elif o["refused_units"] != "0":
                    row.append(f"{o['mask_mean']} (X {o['refused_units']} of {o['units']})")
                else:
                    row.append(o["mask_mean"])
            rows.append(row)
    return (table(columns, rows) + "\n\nOurs: mean wall time per `fill_mask` over every "
            "teacher-forced step (`experiments/run psc_tables`, `overhead.csv`); " + source + ".")


def psc_table2(size):
    ref = read_csv(REFERENCE / "001_table2.csv")
    d, source = psc_results(size)
    if d is None:
        return missing("psc_tables")
    ours = {(r["tokenizer"], r["grammar"], r["engine"]): r for r in read_csv(d / "pass_rate.csv")}
    engines = list(dict.fromkeys(r[2] for r in ours))
    models = list(dict.fromkeys(r["model"] for r in read_csv(REFERENCE / "001_table1.csv")))
    columns = ["model (ours)", "grammar", "PSC %", "LLGuidance %", "GreatGramma %"]
    columns += [f"{e} % (ours)" for e in engines]
    rows = []
    # The plain-text Table 2 lost its model labels: its row groups are taken in Table 1's order.
    for group, model in enumerate(models, start=1):
        tok = TOKENIZER_OF[model]
        by_method = {r["method"]: r for r in ref if r["row_group"] == str(group)}
        for grammar, ours_name in PSC_GRAMMARS:
            row = [f"{model} ({tok})", grammar, by_method["PSC"][grammar],
                   by_method["LLGuidance"][grammar], by_method["GreatGramma"][grammar]]
            for e in engines:
                o = ours.get((tok, ours_name, e))
                samples = 0 if o is None else int(o["positives"]) + int(o["negatives"])
                if samples == 0:
                    row.append("—")
                elif int(o["engine_refused_x"]) == samples:
                    row.append("X")
                else:
                    passed = int(o["positives_passed"]) + int(o["negatives_passed"])
                    cell = f"{o['pass_rate_pct']} ({passed}/{samples})"
                    if o["engine_refused_x"] != "0":
                        cell += f", X {o['engine_refused_x']}"
                    row.append(cell)
            rows.append(row)
    return (table(columns, rows) + "\n\nOurs: `experiments/run psc_tables` (`pass_rate.csv`: "
            "grammar failures and engine disagreements per cell); " + source + ".")


def psc_table3(size):
    ref = read_csv(REFERENCE / "001_table3.csv")
    d, source = psc_results(size)
    if d is None:
        return missing("psc_tables")
    ours = {(r["tokenizer"], r["grammar"]): r for r in read_csv(d / "preprocessing.csv")}
    columns = ["model (ours)", "grammar", "PSC s", "PSC GiB", "PSC MiB (zstd)", "wfa CPU s",
               "wfa GiB", "wfa MiB", "wfa MiB (zstd)"]
    rows = []
    for model in dict.fromkeys(r["model"] for r in ref):
        tok = TOKENIZER_OF[model]
        metric = {r["metric"]: r for r in ref if r["model"] == model}
        for grammar, ours_name in PSC_GRAMMARS:
            row = [f"{model} ({tok})", grammar, metric["time_s"][grammar],
                   metric["memory_gib"][grammar], metric["disk_mib"][grammar]]
            o = ours.get((tok, ours_name))
            if o is None or o["units"] == "0":
                row += ["—"] * 4
            elif o["compiled"] == "0":
                row += ["X"] * 4
            else:
                mark = "" if o["compiled"] == o["units"] else f" ({o['compiled']} of {o['units']})"
                row += [o["cpu_s"] + mark, o["peak_gib"], o["artifact_mib"], o["zstd_mib"] or "—"]
            rows.append(row)
    return (table(columns, rows) + "\n\nOurs: the wfa compile in a fresh process per grammar "
            "(JSON: mean over the schemas that compiled), `preprocessing.csv` of "
            "`experiments/run psc_tables`; " + source + ".")


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
    "001-table2": psc_table2,
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
