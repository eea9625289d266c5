"""glrmask as an SGLang grammar backend (the interface of sglang 0.5.23,
`python/sglang/srt/constrained/base_grammar_backend.py`).

SGLang has a registry of grammar backends; `register()`, run by an `sglang.srt.plugins` entry
point in every SGLang process, adds "glrmask" to `--grammar-backend`'s choices and registers
`create_backend`:

    pip install glrmask sglang==0.5.23
    python -m sglang.launch_server --model MODEL --grammar-backend glrmask

Request kinds (the backend's dispatch_*): json (a schema; "$$ANY$$" for any JSON value), regex,
ebnf (Lark; GBNF when the library has that front end) and structural_tag (when the library has
structural tags). SGLang allocates one mask per batch through the first grammar of the batch,
fills a row per unfinished grammar, then applies it; an EAGLE draft tree is walked with
accept_token, fill_vocab_mask and rollback(1) per node. tests/api/python/test_adapters.py replays
those call sequences without SGLang: sglang 0.5.23 pins torch 2.14.1 and CUDA packages (several
GB), which the project's test machines (no GPU) do not install. apply_vocab_mask runs glrmask's CPU kernel; on a GPU it uses torch operations, which
this project has not been able to test.
"""

import glrmask as _glrmask
from glrmask import _requests

try:
    from sglang.srt.constrained.base_grammar_backend import (  # type: ignore
        BaseGrammarBackend as _BackendBase,
        BaseGrammarObject as _GrammarBase,
        InvalidGrammarObject as _Invalid,
    )
except ImportError:  # SGLang absent: the same shapes, so the adapter can be driven and tested.
    _BackendBase = object
    _GrammarBase = object
    _Invalid = None


class GlrmaskGrammarObject(_GrammarBase):
    """One request's state: a glrmask Matcher with SGLang's method names."""

    def __init__(self, constraint, *, stop_token_ids=None, max_rollback=200):
        if _GrammarBase is not object:
            super().__init__()
        self._finished = False
        self.constraint = constraint
        self._stop_token_ids = list(stop_token_ids) if stop_token_ids else None
        self._max_rollback = max_rollback
        self.matcher = _glrmask.Matcher(constraint, max_rollback=max_rollback,
                                        stop_token_ids=self._stop_token_ids)

    # The scheduler sets `finished` when the request ends.
    @property
    def finished(self):
        return self._finished

    @finished.setter
    def finished(self, value):
        self._finished = value

    def maybe_init_reasoning(self, reasoning):
        """Reasoning segments are not constrained by this backend; nothing to do."""

    def accept_token(self, token):
        """Advances over `token`; raises ValueError (SGLang aborts the request) on a refusal.
        Nothing happens once the text has ended."""
        if self.matcher.is_terminated():
            return
        if not self.matcher.accept_token(int(token)):
            raise ValueError(f"glrmask: token {int(token)} is not allowed by the constraint")

    def rollback(self, k):
        self.matcher.rollback(k)

    def is_terminated(self):
        return self.matcher.is_terminated()

    def allocate_vocab_mask(self, vocab_size, batch_size, device):
        mask = _glrmask.allocate_token_bitmask(batch_size, vocab_size, backend="torch")
        return mask if str(device) == "cpu" else mask.to(device)

    def fill_vocab_mask(self, vocab_mask, idx):
        self.matcher.fill_next_token_bitmask(vocab_mask, idx)

    @staticmethod
    def fill_vocab_mask_batched(entries, vocab_mask):
        matchers = [entry.grammar.matcher for entry in entries]
        rows = [entry.row for entry in entries]
        if matchers:
            _glrmask.fill_next_token_bitmasks(matchers, vocab_mask, indices=rows)

    @staticmethod
    def reset_vocab_mask(vocab_mask):
        _glrmask.reset_token_bitmask(vocab_mask)

    @staticmethod
    def move_vocab_mask(vocab_mask, device):
        return vocab_mask.to(device, non_blocking=True)

    @staticmethod
    def apply_vocab_mask(logits, vocab_mask):
        if str(getattr(logits, "device", "cpu")) == "cpu":
            _glrmask.apply_token_bitmask_inplace(logits, vocab_mask)
            return
        # A device tensor: unpack the bits with torch operations (untested here: no GPU).
        import torch

        shifts = torch.arange(32, device=logits.device, dtype=torch.int32)
        bits = ((vocab_mask.unsqueeze(-1) >> shifts) & 1).bool().flatten(-2)
        width = min(logits.shape[-1], bits.shape[-1])
        logits[..., :width].masked_fill_(~bits[..., :width], float("-inf"))
        logits[..., width:] = float("-inf")

    def copy(self):
        """A fresh object at the initial state sharing the compiled constraint (what SGLang's
        cache hands each new request)."""
        return GlrmaskGrammarObject(self.constraint, stop_token_ids=self._stop_token_ids,
                                    max_rollback=self._max_rollback)

    # Jump-forward: SGLang 0.5.23 does not call these; they follow its xgrammar backend.
    def try_jump_forward(self, tokenizer):
        forced = self.matcher.find_jump_forward_string()
        if not forced:
            return None
        return [], forced

    def jump_forward_str_state(self, helper):
        _, forced = helper
        return forced, -1

    def jump_and_retokenize(self, old_output_ids, new_output_ids, next_state):
        keep = 0
        for old, new in zip(old_output_ids, new_output_ids):
            if old != new:
                break
            keep += 1
        self.matcher.rollback(len(old_output_ids) - keep)
        for token in new_output_ids[keep:]:
            self.accept_token(token)


class GlrmaskGrammarBackend(_BackendBase):
    """SGLang's backend: the tokenizer made once from SGLang's, a Compiler with a cache, and the
    dispatch of each request kind. A bad grammar gives SGLang's InvalidGrammarObject with the
    message, as SGLang's own backends do."""

    def __init__(self, tokenizer, vocab_size, eos_token_ids=None, *, any_whitespace=True):
        if _BackendBase is not object:
            super().__init__()
        stop = sorted(eos_token_ids) if eos_token_ids else None
        self.glrmask_tokenizer = _glrmask.Tokenizer.from_huggingface(
            tokenizer, vocab_size=vocab_size, stop_token_ids=stop)
        self.vocab_size = vocab_size
        self.compiler = _glrmask.Compiler(self.glrmask_tokenizer, max_entries=256)
        self.any_whitespace = any_whitespace

    def _object(self, make):
        try:
            return GlrmaskGrammarObject(make())
        except _glrmask.Error as error:
            if _Invalid is not None:
                return _Invalid(str(error))
            raise

    def dispatch_json(self, key_string):
        if key_string == "$$ANY$$":
            return self._object(lambda: self.compiler.compile_any_json())
        return self._object(lambda: _requests.json_constraint(
            self.compiler, key_string, any_whitespace=self.any_whitespace))

    def dispatch_regex(self, key_string):
        return self._object(lambda: self.compiler.compile_regex(key_string))

    def dispatch_ebnf(self, key_string):
        return self._object(lambda: _requests.grammar_constraint(self.compiler, key_string))

    def dispatch_structural_tag(self, key_string):
        return self._object(lambda: _requests.structural_tag_constraint(self.compiler, key_string))

    def reset(self):
        if _BackendBase is not object:
            super().reset()
        self.compiler.clear_cache()


def create_backend(server_args, tokenizer, vocab_size, eos_token_ids=None):
    """The factory SGLang's registry calls: (server_args, tokenizer, vocab_size, eos_token_ids)."""
    any_whitespace = not getattr(server_args, "constrained_json_disable_any_whitespace", False)
    return GlrmaskGrammarBackend(tokenizer, vocab_size, eos_token_ids,
                                 any_whitespace=any_whitespace)


def register():
    """The `sglang.srt.plugins` entry point: adds the "glrmask" grammar backend."""
    from sglang.srt.constrained.base_grammar_backend import register_grammar_backend  # type: ignore
    from sglang.srt.server_args import add_grammar_backend_choices  # type: ignore

    add_grammar_backend_choices(["glrmask"])
    register_grammar_backend("glrmask", create_backend)


__all__ = ["GlrmaskGrammarBackend", "GlrmaskGrammarObject", "create_backend", "register"]
