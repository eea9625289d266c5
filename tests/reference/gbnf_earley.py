#!/usr/bin/env python3
"""Reference recognizer for GBNF, llama.cpp's grammar format: an Earley recognizer over code points.

Usage: gbnf_earley.py GRAMMAR_FILE [--start NAME] [--prefix] < INPUTS

INPUTS is JSON Lines, each line one JSON string (a text; blank lines are skipped). For each text one
line is printed: `1` when the whole text is a sentence of the grammar's language (with --prefix:
when it is a prefix of some sentence), else `0`. The start rule is `root` unless --start names
another. A grammar this script refuses is reported as `error: <message>` on stderr with exit
status 2, before any input is read; an input line that is not a JSON string exits with status 1.

This is a reference for the tests, written independently from the format's description (llama.cpp's
grammars/README.md), not from llama.cpp's code nor from this project's GBNF front end. It reads
GBNF into plain BNF (a group becomes a fresh nonterminal, `x*` a fresh left-recursive nonterminal
`R ::= | R x`, `x{m,n}` m copies of x and a chain of n-m nested optionals) whose terminals are sets
of code points, and decides membership with Earley's algorithm and Aycock and Horspool's rule for
nullable nonterminals. A text is a Python str: a character class or `.` matches one code point.

The syntax read: rules `name ::= alternatives` (names of ASCII letters, digits, `-` and `_`);
spaces and tabs between elements; newlines after `::=`, after `|` and anywhere inside parentheses,
otherwise a newline ends the rule; `#` comments to the end of the line wherever space may be.
Alternatives (an empty one too) are sequences of string literals "...", character classes [...]
and [^...] (ranges a-z, `]` only escaped), `.`, rule references and groups ( ... ), each followed
by any number of `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}` (spaces allowed inside the braces; a later
operator applies to the whole repetition before it). Escapes: \\n \\t \\r \\\\ \\" \\[ \\] \\xHH
\\uHHHH \\UHHHHHHHH, each one code point.

Refused, where llama.cpp would differ or the language would be unclear: a rule defined twice, a
range that runs backwards, `{m,n}` with n < m, a count above 100,000 (to stay within memory), and
the special-token syntax `<[id]>`, `<name>`, `!<...>` ("tokens not supported"). Taken, where
llama.cpp refuses: left recursion, and counts from 2,000 up (llama.cpp's own limit).

With --prefix the answer is exact: nonterminals that derive no text are dropped first, so every
item left in the last Earley set can be completed, and a text is a viable prefix iff that set is
non-empty.
"""

import argparse
import bisect
import json
import sys

MAX_CODE_POINT = 0x10FFFF
MAX_COUNT = 100_000

BLANKS = frozenset(" \t")
NEWLINES = frozenset("\r\n")
DIGITS = frozenset("0123456789")
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
POSTFIX_STARTS = frozenset("*+?{")
SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "[": "[", "]": "]"}
HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


class GrammarError(Exception):
    """A grammar text this reference refuses."""


class InputError(Exception):
    """An input line that is not a JSON string."""


# ---------------------------------------------------------------------------------------------
# Code point sets


class CodePointSet:
    """A set of code points as sorted, disjoint, non-adjacent ranges; membership by bisection."""

    def __init__(self, ranges):
        merged = []
        for low, high in sorted(r for r in ranges if r[0] <= r[1]):
            if merged and low <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], high)
            else:
                merged.append([low, high])
        self.lows = [low for low, _ in merged]
        self.highs = [high for _, high in merged]

    def __contains__(self, code_point):
        k = bisect.bisect_right(self.lows, code_point) - 1
        return k >= 0 and code_point <= self.highs[k]

    def is_empty(self):
        return not self.lows

    def key(self):
        return tuple(self.lows), tuple(self.highs)

    def complement(self):
        gaps, next_low = [], 0
        for low, high in zip(self.lows, self.highs):
            gaps.append((next_low, low - 1))
            next_low = high + 1
        gaps.append((next_low, MAX_CODE_POINT))
        return CodePointSet(gaps)


ANY_CODE_POINT = CodePointSet([(0, MAX_CODE_POINT)])


# ---------------------------------------------------------------------------------------------
# Plain BNF and the desugaring of GBNF's operators


class Bnf:
    """A context-free grammar in plain BNF. Symbols are ints: a nonterminal is >= 0 (its name is
    names[id]), a terminal is < 0 (terminal t is the CodePointSet terminals[~t])."""

    def __init__(self):
        self.names = []
        self.productions = []
        self.terminals = []
        self._terminal_ids = {}

    def nonterminal(self, name):
        self.names.append(name)
        return len(self.names) - 1

    def fresh(self, rule):
        """A generated nonterminal, named after the rule it was written in."""
        return self.nonterminal(f"{rule}_{len(self.names)}")

    def terminal(self, code_points):
        key = code_points.key()
        if key not in self._terminal_ids:
            self.terminals.append(code_points)
            self._terminal_ids[key] = ~(len(self.terminals) - 1)
        return self._terminal_ids[key]

    def add(self, lhs, rhs):
        self.productions.append((lhs, tuple(rhs)))

    def single(self, rule, symbols):
        """One symbol standing for the sequence `symbols`."""
        if len(symbols) == 1:
            return symbols[0]
        group = self.fresh(rule)
        self.add(group, symbols)
        return group

    def star(self, rule, item):
        """R ::= | R item"""
        repeat = self.fresh(rule)
        self.add(repeat, [])
        self.add(repeat, [repeat, item])
        return repeat

    def optionals(self, rule, item, count):
        """O_k ::= | item O_(k-1), for k = 1..count (O_0 is nothing): up to `count` items."""
        tail = []
        for _ in range(count):
            optional = self.fresh(rule)
            self.add(optional, [])
            self.add(optional, [item] + tail)
            tail = [optional]
        return tail

    def repeat(self, rule, item, low, high):
        """The symbols of item{low,high}; high None means no upper bound."""
        symbols = [item] * low
        if high is None:
            symbols.append(self.star(rule, item))
        else:
            symbols.extend(self.optionals(rule, item, high - low))
        return symbols


# ---------------------------------------------------------------------------------------------
# The GBNF reader


class GbnfParser:
    """Reads GBNF text into a Bnf, rule by rule; rule names map to nonterminals in rule_ids."""

    def __init__(self, text):
        self.text = text
        self.pos = 0
        self.bnf = Bnf()
        self.rule_ids = {}
        self.defined = {}
        self.referenced = {}
        self.rule = None

    # -- positions and errors

    def peek(self, offset=0):
        at = self.pos + offset
        return self.text[at] if at < len(self.text) else None

    def at_end(self):
        return self.pos >= len(self.text)

    def place(self, at):
        """line:column of offset `at` (both from 1, the column in code points)."""
        line = self.text.count("\n", 0, at) + 1
        column = at - (self.text.rfind("\n", 0, at) + 1) + 1
        return f"{line}:{column}"

    def error(self, message, at=None):
        return GrammarError(f"{self.place(self.pos if at is None else at)}: {message}")

    def found(self):
        c = self.peek()
        return "the end" if c is None else repr(c)

    def expect(self, word):
        if not self.text.startswith(word, self.pos):
            raise self.error(f"expected '{word}', found {self.found()}")
        self.pos += len(word)

    def skip_space(self, newlines):
        """Skips spaces, tabs and comments, and newlines when `newlines`."""
        while True:
            c = self.peek()
            if c in BLANKS or (newlines and c in NEWLINES):
                self.pos += 1
            elif c == "#":
                while not self.at_end() and self.peek() not in NEWLINES:
                    self.pos += 1
            else:
                return

    # -- rules

    def parse(self):
        self.skip_space(newlines=True)
        while not self.at_end():
            self.parse_rule()
        for name, at in self.referenced.items():
            if name not in self.defined:
                raise self.error(f"undefined rule '{name}'", at)
        return self.bnf, self.rule_ids

    def parse_rule(self):
        start = self.pos
        name = self.parse_name()
        self.skip_space(newlines=False)
        self.expect("::=")
        self.skip_space(newlines=True)
        if name in self.defined:
            first = self.place(self.defined[name])
            raise self.error(f"rule '{name}' is defined twice (first at {first})", start)
        self.defined[name] = start
        self.rule = name
        self.parse_alternates(self.rule_symbol(name), nested=False)
        self.end_rule()
        self.skip_space(newlines=True)

    def end_rule(self):
        if self.at_end():
            return
        if self.peek() not in NEWLINES:
            raise self.error(f"expected a newline or the end after the rule, found {self.found()}")
        self.pos += 1

    def parse_name(self):
        start = self.pos
        while self.peek() in NAME_CHARS:
            self.pos += 1
        if self.pos == start:
            raise self.error(f"expected a rule name, found {self.found()}")
        return self.text[start:self.pos]

    def rule_symbol(self, name):
        if name not in self.rule_ids:
            self.rule_ids[name] = self.bnf.nonterminal(name)
        return self.rule_ids[name]

    # -- alternatives, sequences, elements

    def parse_alternates(self, lhs, nested):
        self.bnf.add(lhs, self.parse_sequence(nested))
        while self.peek() == "|":
            self.pos += 1
            self.skip_space(newlines=True)
            self.bnf.add(lhs, self.parse_sequence(nested))

    def parse_sequence(self, nested):
        """The symbols of one alternative; `last` is where the latest element's symbols begin."""
        symbols, last = [], None
        while True:
            if self.peek() in POSTFIX_STARTS:
                if last is None:
                    raise self.error(f"expected an item before {self.found()}")
                item = self.bnf.single(self.rule, symbols[last:])
                symbols[last:] = self.parse_postfix(item, nested)
            else:
                element = self.parse_element()
                if element is None:
                    return symbols
                last = len(symbols)
                symbols.extend(element)
            self.skip_space(newlines=nested)

    def parse_element(self):
        """The symbols of one element, or None when none begins here."""
        c = self.peek()
        if c == '"':
            return self.parse_literal()
        if c == "[":
            return [self.bnf.terminal(self.parse_class())]
        if c == ".":
            self.pos += 1
            return [self.bnf.terminal(ANY_CODE_POINT)]
        if c == "(":
            return [self.parse_group()]
        if c in NAME_CHARS:
            return [self.parse_reference()]
        if c == "<" or (c == "!" and self.peek(1) == "<"):
            raise self.error("tokens not supported (<[id]>, <name>, !<...>)")
        return None

    def parse_reference(self):
        at = self.pos
        name = self.parse_name()
        self.referenced.setdefault(name, at)
        return self.rule_symbol(name)

    def parse_group(self):
        self.pos += 1
        self.skip_space(newlines=True)
        group = self.bnf.fresh(self.rule)
        self.parse_alternates(group, nested=True)
        self.expect(")")
        return group

    def parse_literal(self):
        start = self.pos
        self.pos += 1
        symbols = []
        while self.peek() != '"':
            if self.at_end():
                raise self.error("unterminated string literal", start)
            code_point = self.parse_char()
            symbols.append(self.bnf.terminal(CodePointSet([(code_point, code_point)])))
        self.pos += 1
        return symbols

    def parse_class(self):
        start = self.pos
        self.pos += 1
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        ranges = []
        while self.peek() != "]":
            if self.at_end():
                raise self.error("unterminated character class", start)
            ranges.append(self.parse_range())
        self.pos += 1
        code_points = CodePointSet(ranges)
        return code_points.complement() if negated else code_points

    def parse_range(self):
        low = high = self.parse_char()
        if self.peek() == "-" and self.peek(1) not in (None, "]"):
            self.pos += 1
            at = self.pos
            high = self.parse_char()
            if high < low:
                raise self.error(f"the range {chr(low)!r}-{chr(high)!r} runs backwards", at)
        return low, high

    def parse_char(self):
        """One code point of a literal or class, escapes decoded."""
        c = self.peek()
        if c != "\\":
            self.pos += 1
            return ord(c)
        escape = self.peek(1)
        if escape in SIMPLE_ESCAPES:
            self.pos += 2
            return ord(SIMPLE_ESCAPES[escape])
        if escape in HEX_ESCAPES:
            return self.parse_hex(escape, HEX_ESCAPES[escape])
        if escape is None:
            raise self.error("unterminated escape")
        raise self.error(f"unknown escape '\\{escape}'")

    def parse_hex(self, escape, size):
        digits = self.text[self.pos + 2:self.pos + 2 + size]
        if len(digits) != size or not all(d in HEX_DIGITS for d in digits):
            raise self.error(f"expected {size} hex digits after '\\{escape}'")
        value = int(digits, 16)
        if value > MAX_CODE_POINT:
            raise self.error(f"'\\{escape}{digits}' is not a code point")
        self.pos += 2 + size
        return value

    # -- postfix operators

    def parse_postfix(self, item, nested):
        """The symbols replacing `item` under the operator at pos."""
        operator = self.peek()
        if operator == "{":
            low, high = self.parse_braces(nested)
        else:
            self.pos += 1
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[operator]
        return self.bnf.repeat(self.rule, item, low, high)

    def parse_braces(self, nested):
        """{m}, {m,} or {m,n}: (m, m), (m, None) or (m, n)."""
        self.pos += 1
        self.skip_space(nested)
        low = high = self.parse_count()
        self.skip_space(nested)
        if self.peek() == ",":
            self.pos += 1
            self.skip_space(nested)
            high = self.parse_count() if self.peek() in DIGITS else None
            self.skip_space(nested)
        self.expect("}")
        if high is not None and high < low:
            raise self.error(f"the repetition {{{low},{high}}} has its maximum below its minimum")
        return low, high

    def parse_count(self):
        start = self.pos
        while self.peek() in DIGITS:
            self.pos += 1
        if self.pos == start:
            raise self.error(f"expected a repetition count, found {self.found()}")
        count = int(self.text[start:self.pos])
        if count > MAX_COUNT:
            raise self.error(f"repetition count {count} is above this reference's {MAX_COUNT}",
                             start)
        return count


# ---------------------------------------------------------------------------------------------
# Grammar analysis


def derivable(productions, count, terminal_ok):
    """Marks each nonterminal with a production whose terminals all pass `terminal_ok` and whose
    nonterminals are all marked (least fixed point, linear time)."""
    marked = [False] * count
    pending, users, queue = [], [[] for _ in range(count)], []
    for index, (lhs, rhs) in enumerate(productions):
        if not all(terminal_ok(s) for s in rhs if s < 0):
            pending.append(None)
            continue
        nonterminals = [s for s in rhs if s >= 0]
        pending.append(len(nonterminals))
        for s in nonterminals:
            users[s].append(index)
        if not nonterminals:
            queue.append(lhs)
    while queue:
        symbol = queue.pop()
        if marked[symbol]:
            continue
        marked[symbol] = True
        for index in users[symbol]:
            pending[index] -= 1
            if pending[index] == 0:
                queue.append(productions[index][0])
    return marked


def productive_productions(bnf):
    """The productions whose every symbol derives some text (an empty class derives none)."""
    count = len(bnf.names)
    productive = derivable(bnf.productions, count, lambda t: not bnf.terminals[~t].is_empty())
    return [(lhs, rhs) for lhs, rhs in bnf.productions
            if all(productive[s] if s >= 0 else not bnf.terminals[~s].is_empty() for s in rhs)]


# ---------------------------------------------------------------------------------------------
# Earley's recognizer


class EarleyRecognizer:
    """Earley's recognizer over code points, with Aycock and Horspool's rule: predicting a nullable
    nonterminal also moves the dot over it, so completions of empty spans need no revisiting.

    An item is (state, origin); states number the dotted productions, state + 1 being the same
    production with the dot one symbol further. after[state] is the symbol after the dot (None
    when the production is complete) and lhs[state] its left-hand side."""

    def __init__(self, bnf, start):
        productions = productive_productions(bnf)
        self.empty_language = all(lhs != start for lhs, _ in productions)
        self.terminals = bnf.terminals
        self.start = len(bnf.names)
        productions.append((self.start, (start,)))
        self.nullable = derivable(productions, self.start + 1, lambda t: False)
        self.after, self.lhs, self.starts = [], [], [[] for _ in range(self.start + 1)]
        for left, rhs in productions:
            self.starts[left].append(len(self.after))
            self.after.extend(rhs)
            self.after.append(None)
            self.lhs.extend([left] * (len(rhs) + 1))
        self.accept_state = len(self.after) - 1

    def accepts(self, text):
        return (self.accept_state, 0) in self.last_set(text)

    def viable_prefix(self, text):
        return bool(self.last_set(text))

    def last_set(self, text):
        """The items of the Earley set after `text` (empty once no sentence begins with it)."""
        if self.empty_language:
            return set()
        chart = []
        items = [(state, 0) for state in self.starts[self.start]]
        for position, char in enumerate(text):
            _, scans = self.close(items, position, chart)
            items = self.scan(scans, ord(char))
            if not items:
                return set()
        seen, _ = self.close(items, len(text), chart)
        return seen

    def close(self, items, position, chart):
        """Predicts and completes in the Earley set at `position` (`items`, grown in place); appends
        the set's items waiting for each nonterminal to `chart`, and returns the set's items and the
        items moved over each terminal it waits for."""
        after, lhs, starts, nullable = self.after, self.lhs, self.starts, self.nullable
        seen, waiting, scans = set(items), {}, {}
        chart.append(waiting)
        j = 0
        while j < len(items):
            state, origin = items[j]
            j += 1
            symbol = after[state]
            if symbol is None:
                if origin == position:
                    continue  # an empty span: its waiting items moved on when they came in
                moved = [(s + 1, o) for s, o in chart[origin].get(lhs[state], ())]
            elif symbol < 0:
                scans.setdefault(symbol, []).append((state + 1, origin))
                continue
            else:
                moved = self.predict(symbol, state, origin, position, waiting)
            for item in moved:
                if item not in seen:
                    seen.add(item)
                    items.append(item)
        return seen, scans

    def predict(self, symbol, state, origin, position, waiting):
        """Records the item as waiting for `symbol`; returns the items it brings into the set."""
        waiters = waiting.setdefault(symbol, [])
        new = [] if waiters else [(s, position) for s in self.starts[symbol]]
        waiters.append((state, origin))
        if self.nullable[symbol]:
            new.append((state + 1, origin))
        return new

    def scan(self, scans, code_point):
        """The items of the next set: those whose terminal matches `code_point`, moved over it."""
        items = []
        for terminal, moved in scans.items():
            if code_point in self.terminals[~terminal]:
                items.extend(moved)
        return items


# ---------------------------------------------------------------------------------------------
# Command line


def load(path, start):
    """The recognizer for the GBNF file at `path`, starting at rule `start`."""
    try:
        with open(path, "rb") as file:
            text = file.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise GrammarError(f"cannot read {path}: {error}") from error
    bnf, rule_ids = GbnfParser(text).parse()
    if start not in rule_ids:
        raise GrammarError(f"the grammar has no rule '{start}' to start from")
    return EarleyRecognizer(bnf, rule_ids[start])


def read_input(line, number):
    try:
        text = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise InputError(f"input line {number}: {error}") from error
    if not isinstance(text, str):
        raise InputError(f"input line {number}: not a JSON string")
    return text


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="GBNF reference recognizer (Earley, code points)")
    parser.add_argument("grammar", metavar="GRAMMAR_FILE")
    parser.add_argument("--start", default="root", metavar="NAME", help="start rule (root)")
    parser.add_argument("--prefix", action="store_true",
                        help="answer whether each text is a prefix of some sentence")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_arguments(argv)
    try:
        recognizer = load(args.grammar, args.start)
    except GrammarError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    answer = recognizer.viable_prefix if args.prefix else recognizer.accepts
    try:
        for number, line in enumerate(sys.stdin.buffer, 1):
            if line.strip():
                print("1" if answer(read_input(line, number)) else "0")
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
