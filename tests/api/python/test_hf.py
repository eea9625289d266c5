"""glrmask with Hugging Face transformers: Tokenizer.from_huggingface against Tokenizer.load, id for
id, on the five real tokenizers (fast ones read by PreTrainedTokenizerFast, and a slow byte-level
one), and model.generate(...) with glrmask.hf.LogitsProcessor on tiny randomly initialised models
(Llama and Qwen2 shapes, built from a config: nothing is downloaded), batch 4, whose finished
outputs must all be valid: JSON Schema instances checked by python3-jsonschema, SynCode grammars'
texts by `glrmask check`."""

import json
import os
import pathlib
import subprocess
import tempfile

import numpy as np
import pytest

import glrmask

from extras import need

transformers = need("transformers")
torch = need("torch")
jsonschema = need("jsonschema")

CACHE = pathlib.Path(glrmask.cache_dir())
DATA = pathlib.Path(os.environ.get("GLRMASK_DATA", ""))
GLRMASK_BIN = os.environ.get("GLRMASK_BIN", "")
NAMES = ["llama2", "llama3", "qwen3", "gemma3", "gptoss"]


def tokenizer_json(name):
    path = CACHE / "tokenizers" / name / "package" / "models" / "tokenizer.json"
    if not path.is_file():
        pytest.skip(f"{name} is not in the setup cache")
    return path


def hf_fast(name):
    path = tokenizer_json(name)
    return transformers.PreTrainedTokenizerFast(tokenizer_file=str(path))


@pytest.mark.parametrize("name", NAMES)
def test_from_huggingface_fast_equals_load_id_for_id(name):
    hf = hf_fast(name)
    loaded = glrmask.Tokenizer.load(name)
    converted = glrmask.Tokenizer.from_huggingface(hf, stop_token_ids=loaded.stop_ids)
    assert converted.vocab_size == loaded.vocab_size
    for i in range(loaded.vocab_size):
        assert converted.is_special(i) == loaded.is_special(i), i
        assert converted.token_bytes(i) == loaded.token_bytes(i), i
    assert converted.stop_ids == loaded.stop_ids
    # The model's padded vocabulary: the ids past the tokenizer are never allowed.
    padded = glrmask.Tokenizer.from_huggingface(hf, vocab_size=loaded.vocab_size + 77,
                                                stop_token_ids=loaded.stop_ids)
    assert padded.vocab_size == loaded.vocab_size + 77
    assert all(padded.is_special(i) for i in range(loaded.vocab_size, padded.vocab_size))
    constraint = glrmask.Constraint.from_regex("[a-z ]+", padded, engine="lazy")
    bitmask = glrmask.allocate_token_bitmask(1, padded.vocab_size)
    glrmask.Matcher(constraint).fill_next_token_bitmask(bitmask, 0)
    unpacked = np.unpackbits(bitmask.view(np.uint8), bitorder="little")
    assert not unpacked[loaded.vocab_size:].any()
    assert unpacked[:loaded.vocab_size].any()


def test_from_huggingface_slow_byte_level():
    # A slow GPT-2-style tokenizer (vocab.json + merges.txt) made from Llama-3's tokenizer.json,
    # its special tokens in vocab.json at their ids and declared special.
    spec = json.loads(tokenizer_json("llama3").read_text())
    added = {t["content"]: t["id"] for t in spec["added_tokens"]}
    with tempfile.TemporaryDirectory() as folder:
        vocab = pathlib.Path(folder, "vocab.json")
        merges = pathlib.Path(folder, "merges.txt")
        vocab.write_text(json.dumps({**spec["model"]["vocab"], **added}))
        merges.write_text("#version: 0.2\n" + "\n".join(
            m if isinstance(m, str) else " ".join(m) for m in spec["model"]["merges"]) + "\n")
        slow = transformers.GPT2Tokenizer(str(vocab), str(merges), unk_token="<|end_of_text|>",
                                          bos_token="<|begin_of_text|>",
                                          eos_token="<|end_of_text|>")
        slow.add_special_tokens({"additional_special_tokens": list(added)})
    assert not hasattr(slow, "backend_tokenizer")
    loaded = glrmask.Tokenizer.load("llama3")
    converted = glrmask.Tokenizer.from_huggingface(slow)  # stop ids: its eos_token_id
    assert converted.vocab_size == loaded.vocab_size
    assert converted.stop_ids == [added["<|end_of_text|>"]]
    for i in range(loaded.vocab_size):
        assert converted.is_special(i) == loaded.is_special(i), i
        if not loaded.is_special(i):
            assert converted.token_bytes(i) == loaded.token_bytes(i), i


@pytest.mark.parametrize("name", ["llama2", "gemma3"])
def test_from_huggingface_slow_sentencepiece(name):
    # transformers' slow LlamaTokenizer / GemmaTokenizer need the sentencepiece model file, which
    # the setup cache does not have; a stand-in with their interface (sp_model, get_vocab,
    # all_special_ids, eos_token_id) carries the real vocabulary of the tokenizer.json.
    spec = json.loads(tokenizer_json(name).read_text())
    loaded = glrmask.Tokenizer.load(name)
    vocab = dict(spec["model"]["vocab"])
    vocab.update({t["content"]: t["id"] for t in spec["added_tokens"]})

    class SlowSentencePiece:
        sp_model = object()
        eos_token_id = loaded.stop_ids[0]
        all_special_ids = [t["id"] for t in spec["added_tokens"] if t.get("special")]

        def get_vocab(self):
            return vocab

    converted = glrmask.Tokenizer.from_huggingface(SlowSentencePiece())
    assert converted.vocab_size == loaded.vocab_size
    assert converted.stop_ids == [loaded.stop_ids[0]]
    ordinary = [i for i in range(loaded.vocab_size) if not loaded.is_special(i)]
    assert len(ordinary) > 30000
    assert all(converted.token_bytes(i) == loaded.token_bytes(i) for i in ordinary)


_BIASES = {}


def bias_towards_ending(tokenizer, width):
    """A stand-in for a trained model's preference: random logits alone rarely end a text, so the
    stop ids and closing characters get a bonus (applied before glrmask's mask)."""
    key = (tokenizer.vocab_size, width, tuple(tokenizer.stop_ids))
    if key not in _BIASES:
        closing = (b'"', b"}", b"]", b",", b";", b")")
        bias = torch.zeros(width)
        ids = [i for i in range(tokenizer.vocab_size)
               if any(c in tokenizer.token_bytes(i) for c in closing)]
        bias[ids] = 4.0
        bias[list(tokenizer.stop_ids)] = 9.0
        _BIASES[key] = bias
    bias = _BIASES[key]

    class Bias(transformers.LogitsProcessor):
        def __call__(self, input_ids, scores):
            return scores + bias

    return Bias()


def tiny_model(kind, vocab_size):
    torch.manual_seed(0)
    common = dict(vocab_size=vocab_size, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                  num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=1024)
    if kind == "llama":
        return transformers.LlamaForCausalLM(transformers.LlamaConfig(**common)).eval()
    return transformers.Qwen2ForCausalLM(transformers.Qwen2Config(**common)).eval()


FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures"


def maskbench_schemas(count):
    """MaskBench dev's first small schemas; the project's fixture schemas where the data folder
    is absent."""
    folder = DATA / "jsonschema" / "maskbench-dev"
    if not folder.is_dir():
        print("warning: the real-data folder is absent; the fixture schemas stand in for MaskBench")
        folder = FIXTURES / "json_schema"
    schemas = []
    for path in sorted(folder.glob("*.json")):
        item = json.loads(path.read_text())
        text = json.dumps(item["schema"])
        if len(text) < 1500 and "format" not in text and "pattern" not in text:
            schemas.append((path.stem, text))
        if len(schemas) == count:
            break
    return schemas


def generate(model, tokenizer, processor, width, batch, max_new_tokens, seed):
    """Greedy decoding from a random two-token prompt per row (the rows differ by their prompts:
    sampling's multinomial over a 128k vocabulary would cost this test most of its time)."""
    generator = torch.Generator().manual_seed(seed)
    prompt = torch.randint(0, 1000, (batch, 2), generator=generator)
    stop = list(tokenizer.stop_ids)
    out = model.generate(prompt, attention_mask=torch.ones_like(prompt), do_sample=False,
                         max_new_tokens=max_new_tokens, eos_token_id=stop, pad_token_id=stop[0],
                         logits_processor=transformers.LogitsProcessorList(
                             [bias_towards_ending(tokenizer, width), processor]))
    texts = []
    for row in out[:, prompt.shape[1]:].tolist():
        finished = any(t in stop for t in row)
        body = row[:row.index(next(t for t in row if t in stop))] if finished else row
        texts.append((finished, tokenizer.decode(body)))
    return texts


@pytest.mark.parametrize("name,kind", [("llama3", "llama"), ("qwen3", "qwen")])
def test_generate_json_schemas(name, kind):
    hf = hf_fast(name)
    width = len(hf) + 64 if kind == "qwen" else len(hf)  # Qwen's logits are padded
    loaded = glrmask.Tokenizer.load(name)
    tokenizer = glrmask.Tokenizer.from_huggingface(hf, vocab_size=width,
                                                   stop_token_ids=loaded.stop_ids)
    model = tiny_model(kind, width)
    # The default engine on the first schemas; the lazy engine (exact as well, and compiled in
    # milliseconds) on the rest, which keeps 20 schemas within the suite's budget.
    compilers = [glrmask.Compiler(tokenizer), glrmask.Compiler(tokenizer, engine="lazy")]
    schemas = maskbench_schemas(20)
    assert len(schemas) == 20 or not (DATA / "jsonschema").is_dir()
    finished_total = 0
    for index, (schema_name, schema) in enumerate(schemas):
        constraint = compilers[index >= 4].compile_json_schema(schema, name=schema_name)
        processor = glrmask.hf.LogitsProcessor(constraint)
        for finished, text in generate(model, tokenizer, processor, width, 4, 120, index):
            if not finished:
                continue
            finished_total += 1
            jsonschema.validate(json.loads(text), json.loads(schema))
    assert finished_total >= 2 * len(schemas)


@pytest.mark.parametrize("name,kind", [("llama3", "llama"), ("qwen3", "qwen")])
def test_generate_syncode_grammars(name, kind):
    grammars = DATA / "grammars" / "syncode"
    if not grammars.is_dir() or not GLRMASK_BIN:
        pytest.skip("the real-data folder or the glrmask program is absent")
    hf = hf_fast(name)
    width = len(hf)
    loaded = glrmask.Tokenizer.load(name)
    tokenizer = glrmask.Tokenizer.from_huggingface(hf, vocab_size=width,
                                                   stop_token_ids=loaded.stop_ids)
    model = tiny_model(kind, width)
    finished_total = 0
    for grammar in ("json", "sql", "java"):
        path = grammars / f"{grammar}_grammar.lark"
        constraint = glrmask.Constraint.from_lark(path.read_text(), tokenizer, policy="lark",
                                                  name=str(path))
        processor = glrmask.hf.LogitsProcessor(constraint)
        for finished, text in generate(model, tokenizer, processor, width, 4, 120, 1):
            if not finished:
                continue
            finished_total += 1
            with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
                f.write(text)
            check = subprocess.run([GLRMASK_BIN, "check", str(path), f.name, "--policy", "lark"],
                                   capture_output=True, text=True)
            os.unlink(f.name)
            assert check.returncode == 0, (grammar, text, check.stdout, check.stderr)
    assert finished_total >= 4


def test_processor_rows_follow_the_text_and_survive_the_end():
    tokenizer = glrmask.Tokenizer.load("llama3")
    constraint = glrmask.Constraint.from_regex("(ab)+", tokenizer)
    processor = glrmask.hf.LogitsProcessor(constraint)
    ids = tokenizer.encode("ab")
    prompt = torch.tensor([[1], [1]])
    scores = torch.zeros((2, tokenizer.vocab_size))
    processor(prompt, scores)
    assert torch.isfinite(scores[0, ids[0]])
    # Row 0 takes "ab" and the stop id; row 1 goes on. Finished rows keep only stop ids allowed.
    stop = tokenizer.stop_ids[0]
    step = torch.tensor([[1] + ids + [stop], [1] + ids + ids[:1]])
    scores = torch.zeros((2, tokenizer.vocab_size))
    processor(step, scores)
    assert processor.matchers[0].is_terminated()
    assert set(torch.nonzero(torch.isfinite(scores[0])).flatten().tolist()) <= set(tokenizer.stop_ids)
    assert torch.isfinite(scores[0]).any()
    # Assisted decoding asks again about a shorter prefix: the row is rolled back.
    back = torch.tensor([[1] + ids, [1] + ids])
    scores = torch.zeros((2, tokenizer.vocab_size))
    processor(back, scores)
    assert not processor.matchers[1].is_terminated()
    assert torch.isfinite(scores[1, stop])
