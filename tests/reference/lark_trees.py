#!/usr/bin/env python3
"""Every parse tree Lark's Earley parser gives a text, in Lark's pretty() notation, for comparing
with `glrmask parse --trees N` (tests/apps/parse_reference_test.cpp).

  lark_trees.py GRAMMAR FILE [--start S]

Earley with ambiguity='explicit' and the basic lexer, maybe_placeholders=False; each `_ambig`
node is expanded into its alternatives, so the output is one tree per derivation Lark found,
each followed by a blank line, sorted.
"""
import argparse
import itertools

from lark import Lark, Tree


def expand(node):
    """Every tree an explicit-ambiguity tree stands for."""
    if not isinstance(node, Tree):
        return [node]
    if node.data == "_ambig":
        return [tree for child in node.children for tree in expand(child)]
    options = [expand(child) for child in node.children]
    return [Tree(node.data, list(children)) for children in itertools.product(*options)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("grammar")
    parser.add_argument("file")
    parser.add_argument("--start", default="start")
    args = parser.parse_args()
    with open(args.grammar, encoding="utf-8") as grammar, open(args.file, encoding="utf-8") as text:
        lark = Lark(grammar.read(), parser="earley", ambiguity="explicit", lexer="basic",
                    maybe_placeholders=False, start=args.start)
        result = lark.parse(text.read())
    trees = sorted(tree.pretty() if isinstance(tree, Tree) else f"{tree}\n" for tree in expand(result))
    for tree in trees:
        print(tree)


if __name__ == "__main__":
    main()
