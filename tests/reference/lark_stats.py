#!/usr/bin/env python3
"""Prints what Lark itself makes of a .lark grammar, as the reference for glrmask's Lark front-end.

Usage: lark_stats.py GRAMMAR.lark [--compare TERMINALS.tsv]

Loads the grammar with the Lark (Debian python3-lark) options SynCode uses
(parser='lalr', lexer='basic', start='start') and prints tab-separated lines:

  terminal  NAME  PRIORITY  KIND(str|re)  FLAGS  PATTERN   (PATTERN: the string for str, the regex for re)
  ignore    NAME
  rule      NAME  EXPANSIONS  ALIASES       (user-named nonterminals only; EXPANSIONS = Lark's count)
  counts    PRODUCTIONS  NONTERMINALS  TERMINALS

With --compare, TERMINALS.tsv holds glrmask's terminals (NAME, PATTERN, FLAGS per line, escapes
\\t \\n \\r \\\\ in the fields). For every terminal present on both sides, Python's `re` decides
whether the two regexes agree on a probe set (every literal of the grammar plus typical lexemes):
both match the whole probe or neither does; for a Lark pattern with a lazy quantifier, which Lark's
lexer uses for "shortest match", both must match the same prefix of the probe instead.
Disagreements are printed as `mismatch NAME PROBE`. This is how the test checks composed
terminals, whose alternatives Lark orders differently from glrmask, and glrmask's own `common`
terminals, which avoid lazy quantifiers and lookaround.
"""
import re
import sys

import lark
from lark.lexer import PatternStr

_TYPICAL_LEXEMES = [
    "0", "7", "12", "007", "1.5", ".5", "5.", "1e5", "1E-3", "2.5e+10", "-3", "+4", "-2.5", "0x1F",
    "0o17", "0b101", "a", "Z", "abc", "a_b1", "_x", "x1", "ABC_9", "é", " ", "  ", "\t", "\n",
    "\r\n", "\n  ", " \t\n", "\f", '""', '"x"', '"a\\"b"', '"\\\\"', "'x'", "''", "'ab'", "`x`",
    "/* c */", "/**/", "/* a */ b */", "// c", "-- c", "# c", "#", "+", "-", "*", "/", "(", ")",
    "{", "}", "[", "]", ";", ",", ".", ":", "=", "==", "<=", "a b", "JOIN", "left join",
    "LEFT OUTER JOIN", "inner  join", "COUNT(", "count(", "SUM(", "true", "false", "null",
]


def escape_field(text):
    return (text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            .replace("\r", "\\r"))


def unescape_field(text):
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}[text[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def with_flags(regex, flags):
    return "(?%s:%s)" % (flags, regex) if flags else regex


def main():
    path = sys.argv[1]
    with open(path, encoding="utf8") as f:
        text = f.read()
    parser = lark.Lark(text, parser="lalr", lexer="basic", start="start")

    for t in parser.terminals:
        kind = "str" if isinstance(t.pattern, PatternStr) else "re"
        flags = "".join(sorted(t.pattern.flags))
        print("terminal\t%s\t%d\t%s\t%s\t%s" %
              (t.name, t.priority, kind, flags, escape_field(t.pattern.value)))
    for name in parser.ignore_tokens:
        print("ignore\t%s" % name)
    by_origin = {}
    for r in parser.rules:
        by_origin.setdefault(r.origin.name, []).append(r)
    for name, rules in by_origin.items():
        if name.startswith("__"):
            continue
        aliases = sorted({r.alias for r in rules if r.alias})
        print("rule\t%s\t%d\t%s" % (name, len(rules), ",".join(aliases)))
    print("counts\t%d\t%d\t%d" % (len(parser.rules), len(by_origin), len(parser.terminals)))

    if len(sys.argv) == 4 and sys.argv[2] == "--compare":
        compare(parser, sys.argv[3])


def compare(parser, mine_path):
    probes = set(_TYPICAL_LEXEMES)
    for t in parser.terminals:
        if isinstance(t.pattern, PatternStr):
            probes.add(t.pattern.value)
    for r in parser.rules:
        for s in r.expansion:
            if s.is_term and s.name in parser._terminals_dict:
                p = parser._terminals_dict[s.name].pattern
                if isinstance(p, PatternStr):
                    probes.add(p.value)
    theirs = {t.name: t.pattern.to_regexp() for t in parser.terminals}
    with open(mine_path, encoding="utf8") as f:
        for line in f:
            name, pattern, flags = (unescape_field(x) for x in line.rstrip("\n").split("\t"))
            if name not in theirs:
                continue
            mine = re.compile(with_flags(pattern, flags))
            lark_regex = theirs[name]
            lazy = re.search(r"[*+?}]\?", lark_regex) is not None
            reference = re.compile(lark_regex)
            for probe in sorted(probes):
                if lazy:
                    a, b = mine.match(probe), reference.match(probe)
                    agree = (a.end() if a else -1) == (b.end() if b else -1)
                else:
                    agree = bool(mine.fullmatch(probe)) == bool(reference.fullmatch(probe))
                if not agree:
                    print("mismatch\t%s\t%s" % (name, escape_field(probe)))


if __name__ == "__main__":
    main()
