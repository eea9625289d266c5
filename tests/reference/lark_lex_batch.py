#!/usr/bin/env python3
"""Batch form of lark_lex.py: lexes many files with one Lark parser in one process.

Usage: lark_lex_batch.py GRAMMAR LIST OUT

LIST holds one file path per line. For each file OUT receives

    FILE <path>
    NAME<TAB>begin<TAB>end        (one line per token, byte offsets, ignored terminals left out)
    OK                            or  ERROR <byte offset>

Building Lark's parser takes far longer than lexing one file, so a comparison over a corpus
builds it once here instead of once per file.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lark_lex  # noqa: E402


def main(argv):
    if len(argv) != 4:
        print("usage: lark_lex_batch.py GRAMMAR LIST OUT", file=sys.stderr)
        return 2
    grammar_path, list_path, out_path = argv[1:]
    parser = lark_lex.build_parser(grammar_path)
    with open(list_path, encoding="utf-8") as list_file:
        paths = [line.rstrip("\n") for line in list_file if line.strip()]
    with open(out_path, "w", encoding="utf-8") as out:
        for path in paths:
            with open(path, encoding="utf-8", newline="") as input_file:
                lines, error = lark_lex.lex_lines(parser, input_file.read())
            out.write(f"FILE {path}\n")
            out.writelines(line + "\n" for line in lines)
            if error is None:
                out.write("OK\n")
            else:
                out.write(f"ERROR {error.split('byte offset ')[1].split(':')[0]}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
