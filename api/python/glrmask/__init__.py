"""glrmask: exact grammar-constrained decoding for LLMs.

    tokenizer = glrmask.Tokenizer.load("path/to/tokenizer.json")
    constraint = glrmask.Constraint.from_json_schema(schema, tokenizer)
    matcher = glrmask.Matcher(constraint)
    bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    while not matcher.is_terminated():
        matcher.fill_next_token_bitmask(bitmask, 0)
        glrmask.apply_token_bitmask_inplace(logits, bitmask)   # logits: [1, vocab] float
        token = sample(logits)
        matcher.accept_token(token)

The bitmask is the layout inference engines apply to logits: int32 words, bit i % 32 of word
i // 32 set iff token i may come next, one row of ceil(vocab / 32) words per sequence. numpy
arrays and (CPU) torch tensors are accepted wherever a bitmask or logits are.
"""

import numpy as _np

from . import _glrmask


class Error(Exception):
    """A glrmask failure: `code` says what kind ("grammar", "schema", "tokenizer", "artifact",
    "rejected", "invalid argument", ...); `file`, `line`, `column`, `json_pointer`,
    `byte_offset` and `token` say where (empty / -1 / 0 where they do not apply)."""

    def __init__(self, message, details=None):
        super().__init__(message)
        details = details or {}
        self.code = details.get("code", "internal")
        self.file = details.get("file", "")
        self.line = details.get("line", 0)
        self.column = details.get("column", 0)
        self.json_pointer = details.get("json_pointer", "")
        self.byte_offset = details.get("byte_offset", -1)
        self.token = details.get("token", -1)

    def __str__(self):
        return self.args[0] if self.args else ""


class RejectionError(Error):
    """A token or bytes the constraint refuses; `expected` lists the terminals that could have
    come at `byte_offset`."""

    def __init__(self, message, details=None):
        super().__init__(message, details)
        self.expected = list((details or {}).get("expected", []))


_glrmask._set_error_classes(Error, RejectionError)

Tokenizer = _glrmask.Tokenizer
Grammar = _glrmask.Grammar
Warning = _glrmask.Warning
Compiler = _glrmask.Compiler
Constraint = _glrmask.Constraint
Limits = _glrmask.Limits
Matcher = _glrmask.Matcher
version = _glrmask.version
engine_names = _glrmask.engine_names
grammar_formats = _glrmask.grammar_formats
__version__ = _glrmask.version()


def _as_numpy(array):
    """A numpy view of a numpy array or a CPU torch tensor (sharing its memory)."""
    if isinstance(array, _np.ndarray):
        return array
    if hasattr(array, "numpy") and hasattr(array, "device"):
        if str(array.device) != "cpu":
            raise Error("glrmask works on CPU tensors here; copy the tensor to the CPU first",
                        {"code": "invalid argument"})
        return array.numpy()
    raise Error("expected a numpy array or a torch tensor, got %s" % type(array).__name__,
                {"code": "invalid argument"})


def allocate_token_bitmask(batch_size, vocab_size):
    """A [batch_size, ceil(vocab_size / 32)] int32 array with every bit set (all allowed)."""
    return _np.full((batch_size, (vocab_size + 31) // 32), -1, dtype=_np.int32)


def fill_next_token_bitmasks(matchers, bitmask):
    """Row i of `bitmask` gets matchers[i]'s mask; the rows are computed in parallel."""
    _glrmask.fill_next_token_bitmasks(list(matchers), bitmask)


def apply_token_bitmask_inplace(logits, bitmask):
    """Sets logits to -inf where the bitmask's bit is clear. `logits` is [batch, vocab] or
    [vocab] (a model's padded width is fine: entries past 32 * words are left alone) and
    `bitmask` [batch, words] or [words]; torch tensors stay on their device."""
    if hasattr(logits, "masked_fill_"):  # torch
        import torch

        mask = bitmask if hasattr(bitmask, "masked_fill_") else torch.from_numpy(_np.asarray(bitmask))
        mask = mask.to(logits.device)
        shifts = torch.arange(32, device=logits.device, dtype=torch.int32)
        bits = ((mask.unsqueeze(-1) >> shifts) & 1).bool().flatten(-2)
        width = min(logits.shape[-1], bits.shape[-1])
        logits[..., :width].masked_fill_(~bits[..., :width], float("-inf"))
        return
    logits = _as_numpy(logits)
    mask = _as_numpy(bitmask)
    bits = _np.unpackbits(_np.ascontiguousarray(mask).view(_np.uint8), axis=-1, bitorder="little")
    width = min(logits.shape[-1], bits.shape[-1])
    view = logits[..., :width]
    view[bits[..., :width] == 0] = -_np.inf


__all__ = [
    "Error",
    "RejectionError",
    "Tokenizer",
    "Grammar",
    "Warning",
    "Compiler",
    "Constraint",
    "Limits",
    "Matcher",
    "allocate_token_bitmask",
    "fill_next_token_bitmasks",
    "apply_token_bitmask_inplace",
    "version",
    "engine_names",
    "grammar_formats",
]
