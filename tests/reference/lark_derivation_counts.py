#!/usr/bin/env python3
"""Derivation counts by Lark's Earley parser (Debian's python3-lark 1.1.5), the independent
reference for glrmask's parse forests.

  lark_derivation_counts.py INPUT [OUTPUT]

INPUT (a file, or - for standard input): JSON lines {"grammar": LARK_TEXT, "texts": [TEXT, ...]}.
OUTPUT (a file, default standard output): one JSON line per input line, {"counts": [COUNT, ...]} where COUNT is a decimal string,
"infinite", or null when the text is not a sentence (or Lark refused the grammar: then
{"error": MESSAGE}).

The count is taken on Lark's shared packed parse forest (Earley with ambiguity='forest', the
basic lexer): a symbol node is the sum of its packed nodes, a packed node the product of its
left and right children (Lark's forest is binarized), tokens count 1, and a cycle reachable
from the root makes the count infinite.
"""
import json
import sys

from lark import Lark
from lark.exceptions import LarkError
import lark.parsers.earley_forest as earley_forest

sys.setrecursionlimit(1000000)


def forest_count(root):
    memo = {}
    on_stack = set()

    def visit(node):
        if node is None or not isinstance(node, (earley_forest.SymbolNode, earley_forest.PackedNode)):
            return 1
        key = id(node)
        if key in memo:
            return memo[key]
        if key in on_stack:
            return None  # a cycle
        on_stack.add(key)
        if isinstance(node, earley_forest.SymbolNode):
            parts = [visit(child) for child in node.children]
            total = None if any(p is None for p in parts) else sum(parts)
        else:
            left, right = visit(node.left), visit(node.right)
            total = None if left is None or right is None else left * right
        on_stack.discard(key)
        memo[key] = total
        return total

    total = visit(root)
    return "infinite" if total is None else str(total)


def main():
    source = sys.stdin if len(sys.argv) < 2 or sys.argv[1] == "-" else open(sys.argv[1], encoding="utf-8")
    out = sys.stdout if len(sys.argv) < 3 else open(sys.argv[2], "w", encoding="utf-8")
    for line in source:
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            parser = Lark(case["grammar"], parser="earley", ambiguity="forest", lexer="basic")
        except LarkError as error:
            print(json.dumps({"error": str(error).splitlines()[0]}), file=out, flush=True)
            continue
        counts = []
        for text in case["texts"]:
            try:
                counts.append(forest_count(parser.parse(text)))
            except LarkError:
                counts.append(None)
        print(json.dumps({"counts": counts}), file=out, flush=True)


if __name__ == "__main__":
    main()
