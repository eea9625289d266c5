#!/usr/bin/env python3
"""The costly and malformed inputs of docs/limits.md ("Untrusted input"), run through the built
`glrmask` one by one, each under a memory cap and a time limit, with its exit code, CPU time, peak
memory and last message.

    python3 scripts/untrusted_repro.py [--glrmask PATH] [--tokenizer PATH] [--fast] [--only NAME]

An input passes when it ends with exit 0 (or 1 for `check` rejecting a text) or with a clear error
(exit 2, one line naming the limit or the place) within --cpu-seconds of CPU and --memory-mib of
peak memory, the defaults being what docs/limits.md promises at the default budgets (10 s, 2 GiB).
A crash, a kill by the cap, or a run over either bound fails. The exit status is the number of
failures (0: all passed). --fast keeps the inputs that pass in well under a second; the test
command runs those (tests/CMakeLists.txt). Needs only the Python standard library.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TOKENIZER = ROOT / "tests" / "fixtures" / "tokenizers" / "tiny_byte_level" / "tokenizer.json"


@dataclass
class Case:
    name: str
    finding: int
    fast: bool
    # Writes the inputs into the folder and returns the glrmask arguments (the tokenizer is added
    # for the commands that take one).
    build: Callable[[Path], list[str]]


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def schema(name: str, value: object) -> Callable[[Path], list[str]]:
    def build(folder: Path) -> list[str]:
        return ["compile", "--json-schema", write(folder, name + ".json", json.dumps(value))]

    return build


def lark(name: str, text: str, command: str = "compile", inputs: dict[str, str] | None = None):
    def build(folder: Path) -> list[str]:
        args = [command, write(folder, name + ".lark", text)]
        for input_name, input_text in (inputs or {}).items():
            args.append(write(folder, input_name, input_text))
        return args

    return build


def defs_chain(levels: int) -> dict:
    defs = {"d0": {"type": "integer"}}
    for level in range(1, levels + 1):
        below = f"#/$defs/d{level - 1}"
        defs[f"d{level}"] = {"allOf": [{"$ref": below}, {"$ref": below}]}
    return {"$defs": defs, "$ref": f"#/$defs/d{levels}"}


def if_then_else(count: int) -> dict:
    return {
        "type": "object",
        "allOf": [
            {"if": {"properties": {f"p{i}": {"const": 1}}},
             "then": {"required": [f"q{i}"]},
             "else": {"properties": {f"q{i}": {"type": "string"}}}}
            for i in range(count)
        ],
    }


def cases() -> list[Case]:
    a20k = "a" * 20000
    return [
        # 1: std::regex on long constants and names.
        Case("const-20k-against-pattern", 1, True,
             schema("c", {"type": "string", "pattern": "^(a|b)*$", "const": a20k})),
        Case("enum-200k-format-email", 1, True,
             schema("c", {"type": "string", "format": "email", "enum": ["a" * 200000 + "@b.c"]})),
        Case("name-200k-against-patternProperties", 1, True,
             schema("c", {"type": "object", "properties": {"a" * 200000: {"type": "integer"}},
                          "patternProperties": {"^(a|b)*$": {"type": "string"}}})),
        Case("lookahead-pattern-on-long-enum", 1, True,
             schema("c", {"type": "string", "pattern": "^(?=a)(a|aa)*$",
                          "enum": ["a" * 5000, "b"]})),
        Case("backreference-on-enum", 1, True,
             schema("c", {"type": "string", "pattern": "^(a+)+\\1c$", "enum": ["a" * 900 + "b"]})),
        # 2: exponential backtracking.
        Case("ambiguous-star-on-enum", 2, True,
             schema("c", {"type": "string", "pattern": "^(a|aa)*$", "enum": ["a" * 48 + "c"]})),
        Case("dot-star-25-on-enum", 2, True,
             schema("c", {"type": "string", "pattern": "(.*a){25}", "enum": ["a" * 53 + "b"]})),
        # 3: blow-ups no budget caught.
        Case("defs-chain-allOf-60", 3, False, schema("c", defs_chain(60))),
        Case("allOf-12-if-then-else", 3, False, schema("c", if_then_else(12))),
        Case("nested-counted-repetition", 3, False,
             schema("c", {"type": "string", "pattern": "^((a{1,100}){1,100}){1,100}$"})),
        Case("lark-100k-literal-alternatives", 3, False,
             lark("g", "start: " + " | ".join(f'"w{i}"' for i in range(100000)) + "\n")),
        # 4: minutes and gigabytes under the default budgets.
        Case("enum-100k-integers", 4, False, schema("c", {"enum": list(range(100000))})),
        Case("lark-5000-literal-terminals", 4, False,
             lark("g", "start: t*\n" + "t: " + " | ".join(f'"k{i}"' for i in range(5000)) + "\n")),
        Case("lark-20000-rules", 4, False,
             lark("g", "start: r0\n" + "".join(f'r{i}: "x" r{i + 1} | "y"\n' for i in range(19999))
                  + 'r19999: "z"\n')),
        Case("maxLength-100000", 4, False,
             schema("c", {"type": "string", "maxLength": 100000})),
        Case("bmp-class-1-to-2000", 4, False,
             schema("c", {"type": "string", "pattern": "^[\\u0000-\\uffff]{1,2000}$"})),
        Case("minimum-1e308-maximum-1.79e308", 4, False,
             schema("c", {"type": "integer", "minimum": 1e308, "maximum": 1.79e308})),
        Case("10000-properties", 4, False,
             schema("c", {"type": "object",
                          "properties": {f"p{i}": {"type": "integer"} for i in range(10000)}})),
        Case("lark-100000-nested-parentheses", 4, True,
             lark("g", "start: " + "(" * 100000 + '"a"' + ")" * 100000 + "\n")),
        Case("schema-100000-nested-arrays", 4, True,
             lambda folder: ["compile", "--json-schema",
                             write(folder, "c.json", '{"items":' * 100000 + "{}" + "}" * 100000)]),
        # 5: session memory and work.
        Case("plus-on-10MB", 5, False,
             lark("g", 'start: "a"+\n', "check", {"a.txt": "a" * 10_000_000})),
        Case("s-s-s-on-3000-bytes", 5, False,
             lark("g", 'start: s\ns: s s | "a"\n', "check", {"a.txt": "a" * 3000})),
    ]


def limit_resources(memory_bytes: int, cpu_seconds: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        os.setsid()

    return apply


def run_case(case: Case, glrmask: str, tokenizer: str, cap_mib: int,
             kill_seconds: int) -> tuple[int | None, float, float, str]:
    """Runs one input; returns its exit code (None when killed, negative for a signal), CPU
    seconds, peak MiB and the last line of its standard error."""
    with tempfile.TemporaryDirectory(prefix="glrmask-untrusted-") as folder:
        args = case.build(Path(folder))
        if args[0] in ("compile", "mask", "generate"):
            args += ["--tokenizer", tokenizer]
        if args[0] == "compile":
            args += ["-o", str(Path(folder) / "out.glrmask")]
        with open(Path(folder) / "stderr.txt", "w+b") as stderr:
            process = subprocess.Popen([glrmask, *args], stdout=subprocess.DEVNULL, stderr=stderr,
                                       preexec_fn=limit_resources(cap_mib << 20, kill_seconds))
            deadline = time.monotonic() + kill_seconds
            code: int | None = None
            while True:
                pid, status, usage = os.wait4(process.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > deadline:
                    os.killpg(process.pid, signal.SIGKILL)
                    _, status, usage = os.wait4(process.pid, 0)
                    break
                time.sleep(0.02)
            if os.WIFEXITED(status):
                code = os.WEXITSTATUS(status)
            elif time.monotonic() <= deadline:
                code = -os.WTERMSIG(status)
            process.returncode = 0  # reaped above
            stderr.seek(0)
            text = stderr.read().decode("utf-8", "replace")
    lines = [line for line in text.splitlines() if line.strip()]
    cpu = usage.ru_utime + usage.ru_stime
    return code, cpu, usage.ru_maxrss / 1024.0, lines[-1] if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--glrmask", default=str(ROOT / "build" / "apps" / "glrmask"))
    parser.add_argument("--tokenizer", default=str(DEFAULT_TOKENIZER))
    parser.add_argument("--fast", action="store_true", help="only the inputs the test command runs")
    parser.add_argument("--only", action="append", default=[], help="run the named input(s)")
    parser.add_argument("--cpu-seconds", type=float, default=10.0, help="CPU bound of a pass")
    parser.add_argument("--memory-mib", type=float, default=2048.0, help="peak bound of a pass")
    parser.add_argument("--cap-mib", type=int, default=4096, help="address-space cap of a run")
    parser.add_argument("--kill-seconds", type=int, default=30, help="wall time before a kill")
    options = parser.parse_args()

    selected = [case for case in cases()
                if (not options.fast or case.fast) and (not options.only or case.name in options.only)]
    if not selected:
        print("no input selected", file=sys.stderr)
        return 2
    print(f"{'input':40} {'finding':>7} {'exit':>6} {'CPU s':>7} {'peak MiB':>9}  verdict  message")
    failures = 0
    for case in selected:
        code, cpu, peak, message = run_case(case, options.glrmask, options.tokenizer,
                                            options.cap_mib, options.kill_seconds)
        # 1 is `check` rejecting the text; a signal (negative) or a kill (None) is a crash.
        passed = (code in (0, 1, 2) and cpu <= options.cpu_seconds
                  and peak <= options.memory_mib)
        failures += 0 if passed else 1
        shown = "killed" if code is None else str(code)
        if len(message) > 160:
            message = message[:157] + "..."
        print(f"{case.name:40} {case.finding:>7} {shown:>6} {cpu:7.2f} {peak:9.0f}  "
              f"{'pass' if passed else 'FAIL':7}  {message}", flush=True)
    print(f"{failures} of {len(selected)} failed")
    return min(failures, 125)


if __name__ == "__main__":
    sys.exit(main())
