#!/usr/bin/env python3
"""Prints what Lark's own LALR(1) analyzer makes of a .lark grammar: the reference for glr/.

Usage: lark_lalr_states.py GRAMMAR.lark [--bnf OUT.bnf] [--lookaheads OUT.txt]

Compiles the grammar with Debian's python3-lark (start='start'), runs
lark.parsers.lalr_analysis.LALR_Analyzer up to its lookahead sets (it stops before Lark's own
conflict resolution, which raises on reduce/reduce collisions) and prints:

  states         N   number of LALR(1) states (= LR(0) item sets)
  shift_reduce   N   (state, lookahead) pairs with a shift and at least one reduce
  reduce_reduce  N   (state, lookahead) pairs with two or more reduces

--bnf writes the grammar after Lark's EBNF expansion in glr's BNF text format (one production
per line, `name.PRIORITY: symbols`), so glrmask can build its automaton from exactly the
productions Lark analysed.
--lookaheads writes one line per (state, completed item): the state's kernel items, the item and
its sorted lookahead terminals, all sorted, so the two implementations can be compared without
agreeing on state numbers. The augmented start production is printed as `$root`.
"""
import argparse
import os
import sys

from lark.common import ParserConf
from lark.load_grammar import load_grammar
from lark.parsers.lalr_analysis import LALR_Analyzer


def compile_rules(path):
    with open(path, encoding="utf8") as f:
        text = f.read()
    grammar, _ = load_grammar(text, path, [os.path.dirname(os.path.abspath(path))], False)
    _, rules, _ = grammar.compile(["start"], set())
    return rules


def analyze(rules):
    analyzer = LALR_Analyzer(ParserConf(rules, None, ["start"]))
    analyzer.compute_lr0_states()
    analyzer.compute_reads_relations()
    analyzer.compute_includes_lookback()
    analyzer.compute_lookaheads()
    return analyzer


def item_text(rule_ptr):
    rule = rule_ptr.rule
    if rule.origin.name.startswith("$root_"):
        return "$root@%d" % rule_ptr.index
    rhs = " ".join(s.name for s in rule.expansion)
    return "%s: %s@%d" % (rule.origin.name, rhs, rule_ptr.index)


def write_bnf(rules, out):
    out.write("%start start\n")
    for rule in rules:
        priority = rule.options.priority or 0
        name = rule.origin.name + (".%d" % priority if priority else "")
        out.write("%s: %s\n" % (name, " ".join(s.name for s in rule.expansion)))


def write_lookaheads(analyzer, out):
    lines = []
    for state in analyzer.lr0_states:
        kernel = " | ".join(sorted(item_text(rp) for rp in state.kernel))
        completed = {}
        for terminal, rules in state.lookaheads.items():
            for rule in rules:
                completed.setdefault(rule, set()).add(terminal.name)
        for rp in state.closure:
            if rp.is_satisfied and not rp.rule.origin.name.startswith("$root_"):
                terminals = sorted(completed.get(rp.rule, ()))
                lines.append("%s || %s || %s" % (kernel, item_text(rp), " ".join(terminals)))
    for line in sorted(lines):
        out.write(line + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("grammar")
    parser.add_argument("--bnf")
    parser.add_argument("--lookaheads")
    args = parser.parse_args()

    rules = compile_rules(args.grammar)
    analyzer = analyze(rules)
    shift_reduce = reduce_reduce = 0
    for state in analyzer.lr0_states:
        for terminal, reducing in state.lookaheads.items():
            if terminal in state.transitions:
                shift_reduce += 1
            if len(reducing) > 1:
                reduce_reduce += 1
    print("states %d" % len(analyzer.lr0_states))
    print("shift_reduce %d" % shift_reduce)
    print("reduce_reduce %d" % reduce_reduce)
    if args.bnf:
        with open(args.bnf, "w", encoding="utf8") as f:
            write_bnf(rules, f)
    if args.lookaheads:
        with open(args.lookaheads, "w", encoding="utf8") as f:
            write_lookaheads(analyzer, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
