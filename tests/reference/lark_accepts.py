#!/usr/bin/env python3
"""Reference acceptance: does Lark accept each text that `glrmask generate` ended by EOS?

Usage: lark_accepts.py GRAMMAR WALKS [--start S] [--earley] [--skippable T,...] [--postlex python]
                      [--tie-readings]

WALKS is the output of `glrmask generate ... --json-lines`: one JSON object per line with the keys
"walk", "end" ("eos", "limit" or "dead-end") and "text". Walks that did not end by EOS are not
sentences and are skipped. For each EOS walk one line is printed:

    <walk><TAB>lalr                    Lark's LALR parser accepts the text
    <walk><TAB>earley<TAB><message>    LALR rejects it, Lark's Earley parser accepts it (--earley)
    <walk><TAB>ties<TAB><message>      LALR rejects it, and accepts it when the lexer keeps every
                                       reading of a lexical tie (--tie-readings)
    <walk><TAB>rejected<TAB><message>  rejected (by both parsers with --earley)

The LALR parser is built the way SynCode builds it: Lark(grammar, parser='lalr', lexer='basic')
(Debian's python3-lark 1.1.5). Its table resolves shift/reduce conflicts by shifting, so it accepts
a subset of the grammar's language. With --earley, a text LALR rejects is given to Lark's Earley
parser with the same basic lexer, which decides the grammar's full context-free language over the
same token stream: that is the check for walks generated under glrmask's default `glr` policy.
The message is the first line of the LALR error (the Earley one for `rejected`).

With --skippable, the LALR parser is driven token by token (Lark's interactive parser over the
tokens of its basic lexer) and a token of a listed terminal that the parser cannot take is
dropped: SynCode's rule for Go's EOS terminal (newlines, `;` and block comments where a statement
may end), which is glrmask's `--skippable` (docs/glr.md). Not combined with --earley.

With --postlex python, Lark's Indenter runs between lexer and parser with SynCode's settings for
Python: newline terminal _NL, brackets LPAR/LSQB/LBRACE and RPAR/RSQB/RBRACE, _INDENT/_DEDENT,
tab_len 4 (glrmask's `--postlex python`, docs/indenter.md).

With --tie-readings, a text LALR rejects is parsed again by the same LALR table (and indenter)
fed by a lexer with glrmask's tie rule instead of Lark's ordered alternation (docs/lexer.md,
"Differences from Lark's basic lexer"): each of Lark's terminals matches by Python's `re` at the
position, the longest match wins, then the highest priority, then string literals over patterns,
and whatever still ties is kept as alternatives (an ignored terminal's alternative skips the
lexeme); the parser follows every alternative (breadth first, equal parser and indenter states
merged). SynCode's Python grammar needs it: `_NL` includes `COMMENT`, which includes
`LONG_STRING`, so a docstring is all three, and Lark's lexer always emits `_NL` (it rejects
`x = '''a''' + 1`, which glrmask accepts). Not combined with --earley or --skippable.
"""

import json
import os
import sys

from copy import copy

import re

from lark import Lark, Token
from lark.exceptions import LarkError, UnexpectedToken
from lark.indenter import Indenter
from lark.lexer import PatternStr


class SynCodePythonIndenter(Indenter):
    """SynCode's Indenter for Python (its parsers/__init__.py), as the corpus was checked."""
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def build(grammar_path, start, parser, postlex=None):
    with open(grammar_path, encoding="utf-8") as grammar_file:
        grammar = grammar_file.read()
    return Lark(grammar, parser=parser, lexer="basic", start=start, postlex=postlex,
                import_paths=[os.path.dirname(os.path.abspath(grammar_path))])


def first_line(error):
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def parse_skipping(parser, text, skippable):
    """Parses `text` with the LALR `parser`, dropping skippable tokens it cannot take."""
    state = parser.parse_interactive("")
    for token in parser.lex(text):
        if token.type not in skippable:
            state.feed_token(token)
            continue
        trial = copy(state)
        try:
            trial.feed_token(token)
        except UnexpectedToken:
            continue  # dropped, as the skippable rule says
        state = trial
    state.feed_eof()


def tie_lexemes(parser, text):
    """The lexemes of `text` under glrmask's tie rule: (begin, end, [terminal names]), where an
    ignored terminal's name is kept among the alternatives. Raises LarkError where no terminal
    matches."""
    terminals = [(t.name, re.compile(t.pattern.to_regexp()), t.priority,
                  isinstance(t.pattern, PatternStr)) for t in parser.terminals]
    lexemes = []
    at = 0
    while at < len(text):
        best, length = [], 0
        for name, regex, priority, literal in terminals:
            match = regex.match(text, at)
            if not match or match.end() == at:
                continue
            if match.end() - at > length:
                best, length = [], match.end() - at
            if match.end() - at == length:
                best.append((name, priority, literal))
        if not best:
            raise LarkError(f"no terminal matches at character {at}")
        top = max(priority for _, priority, _ in best)
        best = [b for b in best if b[1] == top]
        if any(literal for _, _, literal in best):
            best = [b for b in best if b[2]]
        lexemes.append((at, at + length, [name for name, _, _ in best]))
        at += length
    return lexemes


def parse_with_tie_readings(parser, text, indenter_class):
    """Accepts `text` iff some choice of the tied readings parses (with the indenter, if any)."""
    ignored = set(parser.ignore_tokens)
    # A configuration: (interactive parser, paren level, indentation levels).
    configurations = [(parser.parse_interactive(""), 0, (0,))]
    last_error = "no reading parses"
    for begin, end, names in tie_lexemes(parser, text):
        value = text[begin:end]
        following = {}
        for state, paren_level, levels in configurations:
            for name in names:
                if name in ignored:
                    key = (tuple(state.parser_state.state_stack), paren_level, levels)
                    following.setdefault(key, (state, paren_level, levels))
                    continue
                trial = state.copy()
                depth, stack = paren_level, list(levels)
                try:
                    token = Token(name, value)
                    if indenter_class is not None and name == indenter_class.NL_type:
                        indenter = indenter_class()
                        indenter.paren_level, indenter.indent_level = depth, stack
                        for emitted in indenter.handle_NL(token):
                            trial.feed_token(emitted)
                    else:
                        trial.feed_token(token)
                    if indenter_class is not None:
                        if name in indenter_class.OPEN_PAREN_types:
                            depth += 1
                        elif name in indenter_class.CLOSE_PAREN_types:
                            depth -= 1
                            if depth < 0:
                                raise LarkError("a close bracket with none open")
                except (LarkError, IndexError) as error:  # IndexError: an _NL without a newline
                    last_error = first_line(error)
                    continue
                key = (tuple(trial.parser_state.state_stack), depth, tuple(stack))
                following.setdefault(key, (trial, depth, tuple(stack)))
        configurations = list(following.values())
        if not configurations:
            raise LarkError(f"at character {begin}: {last_error}")
    for state, _, levels in configurations:
        try:
            for _ in levels[1:]:
                state.feed_token(Token(indenter_class.DEDENT_type, ""))
            state.feed_eof()
            return
        except LarkError as error:
            last_error = first_line(error)
    raise LarkError(f"at the end: {last_error}")


def main(argv):
    args = argv[1:]
    start, earley, skippable, postlex, ties = "start", False, set(), None, False
    if "--tie-readings" in args:
        args.remove("--tie-readings")
        ties = True
    if "--earley" in args:
        args.remove("--earley")
        earley = True
    if "--start" in args:
        at = args.index("--start")
        start = args[at + 1]
        del args[at:at + 2]
    if "--skippable" in args:
        at = args.index("--skippable")
        skippable = set(args[at + 1].split(","))
        del args[at:at + 2]
    if "--postlex" in args:
        at = args.index("--postlex")
        if args[at + 1] != "python":
            print(__doc__, file=sys.stderr)
            return 2
        postlex = SynCodePythonIndenter()
        del args[at:at + 2]
    if len(args) != 2 or (earley and skippable) or (postlex and (earley or skippable)) or (
            ties and (earley or skippable)):
        print(__doc__, file=sys.stderr)
        return 2
    grammar_path, walks_path = args
    lalr = build(grammar_path, start, "lalr", postlex)
    full = build(grammar_path, start, "earley") if earley else None
    with open(walks_path, encoding="utf-8") as walks:
        for line in walks:
            if not line.strip():
                continue
            walk = json.loads(line)
            if walk["end"] != "eos":
                continue
            text = walk["text"]
            try:
                if skippable:
                    parse_skipping(lalr, text, skippable)
                else:
                    lalr.parse(text)
                print(f"{walk['walk']}\tlalr")
                continue
            except LarkError as error:
                lalr_error = first_line(error)
            if ties:
                try:
                    parse_with_tie_readings(lalr, text,
                                            SynCodePythonIndenter if postlex else None)
                    print(f"{walk['walk']}\tties\t{lalr_error}")
                except LarkError as error:
                    print(f"{walk['walk']}\trejected\t{lalr_error}; with tie readings: "
                          f"{first_line(error)}")
                continue
            if full is not None:
                try:
                    full.parse(text)
                    print(f"{walk['walk']}\tearley\t{lalr_error}")
                    continue
                except LarkError as error:
                    print(f"{walk['walk']}\trejected\t{first_line(error)}")
                    continue
            print(f"{walk['walk']}\trejected\t{lalr_error}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
