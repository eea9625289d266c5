#!/usr/bin/env python3
"""model.generate(...) constrained to a JSON Schema with glrmask.hf.LogitsProcessor, on a tiny
randomly initialised Llama built from a config (no model is downloaded: the point is the plumbing,
not the text). A bias towards closing characters and the stop id stands in for a trained model's
preference, so sequences end in a few dozen tokens.

    python3 api/examples/transformers_generate.py SCHEMA.json --tokenizer-json PATH/tokenizer.json \
        [--batch 4] [--max-new-tokens 200] [--check]

Prints one line per sequence: the instance, or "unfinished: ..." when max_new_tokens ran out.
With --check every finished instance is validated against the schema (jsonschema) and the exit
code is 1 unless at least one finished and all are valid.
"""
import argparse
import json
import sys

import torch
import transformers

import glrmask
import glrmask.hf


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("schema")
    parser.add_argument("--tokenizer-json", required=True)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--max-new-tokens", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()

    hf = transformers.PreTrainedTokenizerFast(tokenizer_file=args.tokenizer_json)
    config = transformers.LlamaConfig(vocab_size=len(hf) + 64, hidden_size=16, intermediate_size=32,
                                      num_hidden_layers=1, num_attention_heads=2,
                                      num_key_value_heads=1, max_position_embeddings=1024)
    torch.manual_seed(args.seed)
    model = transformers.LlamaForCausalLM(config).eval()
    # The model's logits are wider than the tokenizer (padded): vocab_size says so.
    stop = [hf.convert_tokens_to_ids(t) for t in ("<|end_of_text|>", "<|eot_id|>", "</s>")
            if t in hf.get_vocab()]
    tokenizer = glrmask.Tokenizer.from_huggingface(hf, vocab_size=config.vocab_size,
                                                   stop_token_ids=stop or None)
    with open(args.schema, encoding="utf-8") as f:
        schema = f.read()
    constraint = glrmask.Constraint.from_json_schema(schema, tokenizer)

    bias = torch.zeros(config.vocab_size)
    for i in range(tokenizer.vocab_size):
        if any(c in tokenizer.token_bytes(i) for c in (b'"', b"}", b"]", b",")):
            bias[i] = 4.0
    bias[list(tokenizer.stop_ids)] = 9.0

    class PreferEnding(transformers.LogitsProcessor):
        def __call__(self, input_ids, scores):
            return scores + bias

    # A one-token prompt: the begin-of-text token (not the pad id, which generate would read as
    # padding).
    vocab = hf.get_vocab()
    start = next((vocab[t] for t in ("<|begin_of_text|>", "<s>", "<bos>") if t in vocab), 0)
    prompt = torch.full((args.batch, 1), start, dtype=torch.long)
    out = model.generate(prompt, attention_mask=torch.ones_like(prompt), do_sample=True,
                         max_new_tokens=args.max_new_tokens, eos_token_id=list(tokenizer.stop_ids),
                         pad_token_id=tokenizer.stop_ids[0],
                         logits_processor=transformers.LogitsProcessorList(
                             [PreferEnding(), glrmask.hf.LogitsProcessor(constraint)]))
    finished = 0
    failures = 0
    for row in out[:, 1:].tolist():
        ends = [i for i, t in enumerate(row) if t in tokenizer.stop_ids]
        text = tokenizer.decode(row[:ends[0]] if ends else row).decode("utf-8", "replace")
        if not ends:
            print("unfinished:", text)
            continue
        finished += 1
        print(text)
        if args.check:
            import jsonschema

            try:
                jsonschema.validate(json.loads(text), json.loads(schema))
            except Exception as error:  # noqa: BLE001 - reported and counted
                print("INVALID:", error, file=sys.stderr)
                failures += 1
    if args.check:
        print(f"transformers generate: {finished} of {args.batch} finished, {failures} invalid",
              file=sys.stderr)
        return 0 if finished > 0 and failures == 0 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
