#!/usr/bin/env python3
"""Teacher-forces a text through the Python module and prints, per step, "step token digest".

Usage: teacher_force.py TOKENIZER lark|json_schema FILE TEXT [--policy lark] [--skippable NAME]

The text's tokens, then the stop id (token -1 on that line); digest is the mask digest of
`glrmask mask --steps` (docs/cli.md), computed here with numpy, so tests/api/bindings_corpus_test.cpp
can compare the module's masks with the command's step by step. Exit 1 if a real token is not in
its mask. (Not collected by pytest: no test_ prefix.)
"""
import sys

import numpy as np

import glrmask

MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


def digest(row):
    words = row.view(np.uint32).astype(np.uint64)
    weights = (np.arange(len(words), dtype=np.uint64) * np.uint64(2) + np.uint64(1)) * MULTIPLIER
    with np.errstate(over="ignore"):
        return int(np.sum(words * weights, dtype=np.uint64))


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    tokenizer_name, kind, grammar_path, text_path = argv[1:5]
    policy, skippable = "glr", []
    rest = argv[5:]
    for option, value in zip(rest[::2], rest[1::2]):
        if option == "--policy":
            policy = value
        elif option == "--skippable":
            skippable.append(value)
        else:
            print("unknown option " + option, file=sys.stderr)
            return 2
    tokenizer = glrmask.Tokenizer.load(tokenizer_name)
    grammar = open(grammar_path, encoding="utf-8").read()
    if kind == "lark":
        constraint = glrmask.Constraint.from_lark(grammar, tokenizer, policy=policy,
                                                  skippable=skippable, name=grammar_path)
    else:
        constraint = glrmask.Constraint.from_json_schema(grammar, tokenizer, name=grammar_path)
    text = open(text_path, "rb").read().decode("utf-8")
    tokens = tokenizer.encode(text)
    matcher = glrmask.Matcher(constraint)
    bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    for step in range(len(tokens) + 1):
        matcher.fill_next_token_bitmask(bitmask, 0)
        token = tokens[step] if step < len(tokens) else -1
        print(step, token, digest(bitmask[0]))
        if token < 0:
            break
        if not (int(bitmask[0, token // 32]) >> (token % 32)) & 1:
            print("token %d of step %d is not in its mask" % (token, step), file=sys.stderr)
            return 1
        matcher.commit_token(token)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
