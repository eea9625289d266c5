#!/usr/bin/env python3
"""Reference lexer: tokenizes FILE with Lark's basic lexer for the Lark grammar GRAMMAR.

Usage: lark_lex.py GRAMMAR FILE

Builds the parser the way SynCode does (Lark(text, parser='lalr', lexer='basic', start='start'),
Debian's python3-lark 1.1.5) and prints one line per token, ignored terminals left out:

    NAME<TAB>begin<TAB>end

begin and end are *byte* offsets into FILE's UTF-8 text (Lark itself counts characters), so the
output can be compared with `glrmask lex`. `%import common.X` resolves to Lark's own common.lark,
and imports relative to GRAMMAR's folder work as in Lark. A lexing error is printed on stderr with
its byte offset, and the exit code is 1.

Lark's basic lexer tries the terminals as one ordered alternation (priority, then longest
possible width, ...) and takes the first that matches; glrmask's lexer takes the longest match.
docs/lexer.md lists where the two differ.
"""

import os
import sys

from lark import Lark
from lark.exceptions import LarkError, UnexpectedCharacters


def byte_offsets(text):
    """offsets[i] is the UTF-8 byte offset of character i (and of the end, for i == len)."""
    offsets = [0] * (len(text) + 1)
    position = 0
    for i, character in enumerate(text):
        offsets[i] = position
        position += len(character.encode("utf-8", "surrogatepass"))
    offsets[len(text)] = position
    return offsets


def build_parser(grammar_path):
    """The parser exactly as SynCode builds it; raises LarkError for a bad grammar."""
    with open(grammar_path, encoding="utf-8") as grammar_file:
        grammar = grammar_file.read()
    return Lark(grammar, parser="lalr", lexer="basic", start="start",
                import_paths=[os.path.dirname(os.path.abspath(grammar_path))])


def lex_lines(parser, text):
    """Returns (lines, error): the token lines, and None or the message of a lexing error."""
    offsets = byte_offsets(text)
    lines = []
    try:
        for token in parser.lex(text):
            lines.append(f"{token.type}\t{offsets[token.start_pos]}\t{offsets[token.end_pos]}")
    except UnexpectedCharacters as error:
        return lines, (f"lexer error at byte offset {offsets[error.pos_in_stream]}: "
                       f"{str(error).strip().splitlines()[0]}")
    return lines, None


def main(argv):
    if len(argv) != 3:
        print("usage: lark_lex.py GRAMMAR FILE", file=sys.stderr)
        return 2
    grammar_path, file_path = argv[1], argv[2]
    try:
        parser = build_parser(grammar_path)
    except LarkError as error:
        print(f"{grammar_path}: {error}", file=sys.stderr)
        return 2
    with open(file_path, encoding="utf-8") as input_file:
        text = input_file.read()
    lines, error = lex_lines(parser, text)
    sys.stdout.write("".join(line + "\n" for line in lines))
    if error is not None:
        print(f"{file_path}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
