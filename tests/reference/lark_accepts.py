#!/usr/bin/env python3
"""Reference acceptance: does Lark accept each text that `glrmask generate` ended by EOS?

Usage: lark_accepts.py GRAMMAR WALKS [--start S] [--earley] [--skippable T,...] [--postlex python]

WALKS is the output of `glrmask generate ... --json-lines`: one JSON object per line with the keys
"walk", "end" ("eos", "limit" or "dead-end") and "text". Walks that did not end by EOS are not
sentences and are skipped. For each EOS walk one line is printed:

    <walk><TAB>lalr                    Lark's LALR parser accepts the text
    <walk><TAB>earley<TAB><message>    LALR rejects it, Lark's Earley parser accepts it (--earley)
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
"""

import json
import os
import sys

from copy import copy

from lark import Lark
from lark.exceptions import LarkError, UnexpectedToken
from lark.indenter import Indenter


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


def main(argv):
    args = argv[1:]
    start, earley, skippable, postlex = "start", False, set(), None
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
    if len(args) != 2 or (earley and skippable) or (postlex and (earley or skippable)):
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
