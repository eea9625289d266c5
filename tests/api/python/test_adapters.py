"""The vLLM and SGLang adapters (glrmask.vllm, glrmask.sglang) driven through the calls those engines
make, in their order (read from vllm 0.33.0's StructuredOutputManager.grammar_bitmask and
scheduler, and sglang 0.5.23's sampling_batch_info and spec_utils.traverse_tree): with speculative
drafts, rollback, jump-forward, copy and EOS, every row the adapter fills must equal the row a
plain Matcher gives at the same text. Neither engine installs on a CPU-only machine (both need CUDA
torch), so their classes are stood in for by the call sequences; the adapters subclass the real
ones where they are importable."""

import json
import os
import pathlib

import numpy as np
import pytest

import glrmask

from extras import need

torch = need("torch")

DATA = pathlib.Path(os.environ.get("GLRMASK_DATA", ""))
FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures"


WEATHER_TAG = {"type": "structural_tag", "triggers": ["<tool_call>"], "structures": [
    {"begin": "<tool_call>", "schema": {"type": "object", "properties": {"city": {"type": "string"}},
                                        "required": ["city"]}, "end": "</tool_call>"}]}


def tokenizer_or_skip():
    try:
        return glrmask.Tokenizer.load("llama3")
    except glrmask.Error as error:
        pytest.skip(f"the llama3 tokenizer is not in the setup cache: {error}")


def schemas_with_texts(count):
    """(schema text, instance text) pairs: MaskBench dev when the data folder is there, else the
    project's own fixture schemas."""
    pairs = []
    folder = DATA / "jsonschema" / "maskbench-dev"
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            item = json.loads(path.read_text())
            if item.get("valid") and len(json.dumps(item["schema"])) < 3000:
                pairs.append((json.dumps(item["schema"]), json.dumps(item["valid"][0])))
            if len(pairs) == count:
                return pairs
    for path in sorted((FIXTURES / "json_schema").glob("*.json"))[:count]:
        item = json.loads(path.read_text())
        if isinstance(item, dict) and "schema" in item and item.get("valid"):
            pairs.append((json.dumps(item["schema"]), json.dumps(item["valid"][0])))
    if not pairs:
        pytest.skip("no schemas with instances")
    return pairs[:count]


class FakeHfTokenizer:
    """What the adapters read of an engine's Hugging Face tokenizer, over glrmask's own."""

    def __init__(self, tokenizer):
        self._tokenizer = tokenizer
        self.eos_token_id = tokenizer.stop_ids[0]

    def glrmask_tokenizer(self):
        return self._tokenizer


@pytest.fixture(autouse=True)
def plain_tokenizers(monkeypatch):
    # The adapters make their tokenizer with Tokenizer.from_huggingface from the engine's; the
    # fake carries the glrmask one already (from_huggingface itself is tested in test_hf.py).
    original = glrmask.Tokenizer.from_huggingface

    def from_fake(tokenizer, vocab_size=None, stop_token_ids=None):
        if isinstance(tokenizer, FakeHfTokenizer):
            return tokenizer.glrmask_tokenizer()
        return original(tokenizer, vocab_size=vocab_size, stop_token_ids=stop_token_ids)

    monkeypatch.setattr(glrmask.Tokenizer, "from_huggingface", staticmethod(from_fake))


def reference_row(constraint, tokens, width):
    matcher = glrmask.Matcher(constraint)
    for token in tokens:
        assert matcher.accept_token(token)
    row = glrmask.allocate_token_bitmask(1, width)
    if matcher.is_terminated():
        row[:] = 0
    else:
        matcher.fill_next_token_bitmask(row, 0)
    return row[0]


def test_vllm_call_sequence_with_drafts_rollback_and_eos():
    from glrmask import vllm

    tokenizer = tokenizer_or_skip()
    width = tokenizer.vocab_size + 256  # the model's padded vocabulary
    config = type("Config", (), {"structured_outputs_config": None,
                                 "speculative_config": type("S", (), {"num_speculative_tokens": 3})})
    backend = vllm.GlrmaskBackend(config, FakeHfTokenizer(tokenizer), width)
    bitmask = backend.allocate_token_bitmask(4 * (1 + 3))
    assert bitmask.dtype == torch.int32 and bitmask.shape[1] == (width + 31) // 32
    compared = 0
    for schema, text in schemas_with_texts(10):
        grammar = backend.compile_grammar(vllm.StructuredOutputOptions.JSON, schema,
                                          stop_token_ids={tokenizer.stop_ids[0]})
        constraint = grammar.constraint
        ids = tokenizer.encode(text) + [tokenizer.stop_ids[0]]
        done = []
        position = 0
        while position < len(ids):
            # Drafts: the true next tokens after this one, the third corrupted.
            drafts = list(ids[position + 1:position + 4])
            if len(drafts) == 3:
                drafts[2] = (drafts[2] + 1) % tokenizer.vocab_size
            # grammar_bitmask: this step's row, then one per draft on the state the drafts before
            # it advanced; a refused draft ends the advancing (later rows repeat the last one).
            advanced = []
            rejected = False
            for row in range(len(drafts) + 1):
                if grammar.is_terminated():
                    bitmask[row].fill_(-1)
                else:
                    grammar.fill_bitmask(bitmask, row)
                    state = done + [ids[position]] + advanced if row else done
                    assert (bitmask[row].numpy() == reference_row(constraint, state, width)).all()
                    compared += 1
                if row == 0:
                    # The row of this step's own token: vLLM advances over it too when it
                    # speculates, so the drafts' rows sit on the state after it.
                    if not grammar.accept_tokens("request", [ids[position]]):
                        raise AssertionError("the true token was refused")
                    continue
                if row <= len(drafts) - 1 + 1 and row - 1 < len(drafts) and not rejected:
                    if grammar.is_terminated() or not grammar.accept_tokens("request",
                                                                            [drafts[row - 1]]):
                        rejected = True
                    else:
                        advanced.append(drafts[row - 1])
            grammar.rollback(1 + len(advanced))
            # The forward accepted the true token; vLLM commits it.
            assert grammar.accept_tokens("request", [ids[position]])
            done.append(ids[position])
            position += 1
            # The next drafts are validated without changing the state.
            proposal = list(ids[position:position + 3]) + [tokenizer.stop_ids[0]]
            valid = grammar.validate_tokens(proposal)
            assert valid == proposal[:len(valid)]
            assert len(valid) >= min(len(ids) - position, 3)
        assert grammar.is_terminated()
        # After the end, more tokens are ignored and nothing changes.
        assert grammar.accept_tokens("request", [ids[0]])
        assert grammar.num_processed_tokens == len(ids)
        grammar.reset()
        assert not grammar.is_terminated() and grammar.num_processed_tokens == 0
    assert compared > 50


def test_vllm_speculative_rows_on_advanced_states():
    from glrmask import vllm

    tokenizer = tokenizer_or_skip()
    width = tokenizer.vocab_size
    config = type("Config", (), {})
    backend = vllm.GlrmaskBackend(config, FakeHfTokenizer(tokenizer), width)
    schema, text = schemas_with_texts(1)[0]
    grammar = backend.compile_grammar(vllm.StructuredOutputOptions.JSON, schema)
    ids = tokenizer.encode(text)
    bitmask = backend.allocate_token_bitmask(5)
    # vLLM's loop: fill a row, accept the draft, next row; then roll the advancements back.
    drafts = ids[:4]
    advanced = 0
    for row, token in enumerate(drafts):
        grammar.fill_bitmask(bitmask, row)
        assert (bitmask[row].numpy() == reference_row(grammar.constraint, ids[:row], width)).all()
        if grammar.accept_tokens("r", [token]):
            advanced += 1
    grammar.fill_bitmask(bitmask, 4)  # the bonus row
    assert (bitmask[4].numpy() == reference_row(grammar.constraint, ids[:4], width)).all()
    grammar.rollback(advanced)
    assert grammar.num_processed_tokens == 0
    grammar.fill_bitmask(bitmask, 0)
    assert (bitmask[0].numpy() == reference_row(grammar.constraint, [], width)).all()
    # A refused token in a list leaves the state as before the call.
    assert not grammar.accept_tokens("r", [ids[0], ids[0] + 100000 % width])
    assert grammar.num_processed_tokens == 0
    # The other request kinds.
    for kind, spec in [(vllm.StructuredOutputOptions.JSON_OBJECT, ""),
                       (vllm.StructuredOutputOptions.REGEX, "[0-9]+"),
                       (vllm.StructuredOutputOptions.CHOICE, json.dumps(["yes", "no"])),
                       (vllm.StructuredOutputOptions.GRAMMAR, 'start: "a" | "b"\n'),
                       (vllm.StructuredOutputOptions.STRUCTURAL_TAG, json.dumps(WEATHER_TAG))]:
        g = backend.compile_grammar(kind, spec)
        g.fill_bitmask(bitmask, 0)
    # A structural tag (vLLM's structural_tag request): free text, then the forced tool call.
    tagged = backend.compile_grammar(vllm.StructuredOutputOptions.STRUCTURAL_TAG,
                                     json.dumps(WEATHER_TAG))
    call = 'Sure. <tool_call>{"city": "Oslo"}</tool_call>'
    assert tagged.accept_tokens("r", tokenizer.encode(call))
    assert tagged.matcher.is_accepting()
    choice = backend.compile_grammar(vllm.StructuredOutputOptions.CHOICE, json.dumps(["yes", "no"]))
    assert choice.accept_tokens("r", tokenizer.encode("yes"))
    assert choice.matcher.is_accepting()
    backend.destroy()


def test_sglang_batches_eagle_trees_copy_and_jump_forward():
    from glrmask import sglang

    tokenizer = tokenizer_or_skip()
    width = tokenizer.vocab_size + 100
    backend = sglang.GlrmaskGrammarBackend(FakeHfTokenizer(tokenizer), width,
                                           {tokenizer.stop_ids[0]})
    pairs = schemas_with_texts(10)
    grammars = [backend.dispatch_json(schema) for schema, _ in pairs]
    texts = [tokenizer.encode(text) + [tokenizer.stop_ids[0]] for _, text in pairs]
    done = [[] for _ in pairs]
    Row = type("GrammarRow", (), {})
    compared = 0
    for step in range(max(len(t) for t in texts)):
        # update_regex_vocab_mask: the first grammar allocates; unfinished rows are filled.
        mask = grammars[0].allocate_vocab_mask(vocab_size=width, batch_size=len(grammars),
                                               device="cpu")
        entries = []
        for row, grammar in enumerate(grammars):
            if not grammar.finished and not grammar.is_terminated():
                entry = Row()
                entry.row, entry.grammar = row, grammar
                entries.append(entry)
        grammars[0].fill_vocab_mask_batched(entries, mask)
        mask = grammars[0].move_vocab_mask(mask, "cpu")
        for row, grammar in enumerate(grammars):
            if grammar.is_terminated():
                assert (mask[row] == -1).all()  # left as allocated
                continue
            assert (mask[row].numpy() == reference_row(grammar.constraint, done[row], width)).all()
            compared += 1
        logits = torch.zeros((len(grammars), width))
        grammars[0].apply_vocab_mask(logits=logits, vocab_mask=mask)
        # After sampling: the true token.
        for row, grammar in enumerate(grammars):
            if step < len(texts[row]):
                token = texts[row][step]
                assert torch.isfinite(logits[row, token]) or grammar.is_terminated()
                grammar.accept_token(token)
                done[row].append(token)
                grammar.finished = grammar.is_terminated()
        # An EAGLE draft tree on the first unfinished grammar: the true next two tokens and a
        # wrong sibling, walked depth first with accept_token / fill_vocab_mask / rollback(1).
        live = [r for r, g in enumerate(grammars) if not g.is_terminated()]
        if live:
            r = live[0]
            grammar = grammars[r]
            upcoming = texts[r][step + 1:step + 3]
            tree_mask = grammar.allocate_vocab_mask(width, 4, "cpu")
            grammar.fill_vocab_mask(tree_mask, 0)
            path = list(done[r])
            for depth, token in enumerate(upcoming, start=1):
                bit = (int(tree_mask[depth - 1, token // 32]) >> (token % 32)) & 1
                assert bit == 1
                grammar.accept_token(token)
                path.append(token)
                if not grammar.is_terminated():
                    grammar.fill_vocab_mask(tree_mask, depth)
                    expected = reference_row(grammar.constraint, path, width)
                    assert (tree_mask[depth].numpy() == expected).all()
                    compared += 1
            grammar.rollback(len(upcoming))
            wrong = (texts[r][step + 1] + 1) % tokenizer.vocab_size if step + 1 < len(texts[r]) else 0
            bit = (int(tree_mask[0, wrong // 32]) >> (wrong % 32)) & 1
            if bit == 0:
                with pytest.raises(ValueError):
                    grammar.accept_token(wrong)
    assert all(g.is_terminated() for g in grammars)
    assert compared > 100
    # copy(): a fresh object at the initial state, sharing the compiled constraint.
    fresh = grammars[0].copy()
    assert not fresh.is_terminated() and fresh.constraint is grammars[0].constraint
    mask = fresh.allocate_vocab_mask(width, 1, "cpu")
    fresh.fill_vocab_mask(mask, 0)
    assert (mask[0].numpy() == reference_row(fresh.constraint, [], width)).all()
    # Jump-forward: the forced string, as the matcher finds it.
    forced = glrmask.Matcher(fresh.constraint).find_jump_forward_string()
    helper = fresh.try_jump_forward(None)
    assert (helper is None) == (forced == "")
    if helper:
        assert fresh.jump_forward_str_state(helper)[0] == forced
    # A grammar SGLang sends as ebnf in Lark syntax, a regex, and a bad one.
    assert not backend.dispatch_ebnf('start: "x"+\n').is_terminated()
    assert not backend.dispatch_regex("[a-z]+").is_terminated()
    tagged = backend.dispatch_structural_tag(json.dumps(WEATHER_TAG))
    assert not tagged.is_terminated()
    with pytest.raises(glrmask.Error):
        backend.dispatch_regex("a(")
    backend.reset()
