#!/usr/bin/env python3
"""A sampling loop that constrains a real tokenizer to a JSON Schema, with random logits standing
in for a model: every sampled token keeps the output valid, so whatever ends with the stop token
is a valid instance.

    PYTHONPATH=build/api/python python3 api/examples/sample_json.py SCHEMA.json \
        [--tokenizer llama3] [--seed 1] [--batch 16] [--max-tokens 400]

Prints one JSON instance per sequence (or "unfinished: ..." when --max-tokens ran out first).
With --batch N the N sequences are masked together: one [N, words] bitmask filled in parallel per
step, applied to an [N, vocab] logits array.
"""
import argparse
import json
import sys

import numpy as np

import glrmask


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("schema")
    parser.add_argument("--tokenizer", default="llama3")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--max-tokens", type=int, default=400)
    args = parser.parse_args()

    tokenizer = glrmask.Tokenizer.load(args.tokenizer)
    with open(args.schema, encoding="utf-8") as f:
        schema = f.read()
    constraint = glrmask.Constraint.from_json_schema(schema, tokenizer)  # compiled once, shared
    matchers = [glrmask.Matcher(constraint) for _ in range(args.batch)]
    texts = [b""] * args.batch
    bitmask = glrmask.allocate_token_bitmask(args.batch, tokenizer.vocab_size)
    random = np.random.default_rng(args.seed)
    # The stand-in model: random logits, plus a preference for tokens that close what is open
    # (quotes, brackets, commas) and for the stop ids, so that sequences end in a few dozen steps.
    closing = np.array([any(c in tokenizer.token_bytes(i) for c in (b'"', b"}", b"]", b","))
                        for i in range(tokenizer.vocab_size)], dtype=np.float32)
    bias = 6.0 * closing
    bias[tokenizer.stop_ids] = 20.0

    for _ in range(args.max_tokens):
        if all(m.is_terminated() for m in matchers):
            break
        logits = random.standard_normal((args.batch, tokenizer.vocab_size)).astype(np.float32)
        logits += bias
        glrmask.fill_next_token_bitmasks(matchers, bitmask)  # all rows, in parallel
        glrmask.apply_token_bitmask_inplace(logits, bitmask)
        for i, matcher in enumerate(matchers):
            if matcher.is_terminated():
                continue
            # Bytes every continuation must start with are appended without sampling.
            forced = matcher.find_jump_forward_bytes()
            if forced:
                assert matcher.accept_bytes(forced)
                texts[i] += forced
                continue
            token = int(np.argmax(logits[i]))  # a masked-out token is -inf, never chosen
            assert matcher.accept_token(token)
            if not matcher.is_terminated():
                texts[i] += tokenizer.token_bytes(token)

    for matcher, text in zip(matchers, texts):
        if matcher.is_terminated():
            print(text.decode("utf-8"))
        else:
            print("unfinished: " + json.dumps(text.decode("utf-8", "replace")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
