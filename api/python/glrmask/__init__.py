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


class Error(RuntimeError):
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

    def __reduce__(self):  # picklable, so that it crosses process boundaries
        details = {name: getattr(self, name) for name in
                   ("code", "file", "line", "column", "json_pointer", "byte_offset", "token")}
        return (type(self), (str(self), details))


class RejectionError(Error, ValueError):
    """A token or bytes the constraint refuses; `expected` lists the terminals that could have
    come at `byte_offset`."""

    def __init__(self, message, details=None):
        super().__init__(message, details)
        self.expected = list((details or {}).get("expected", []))

    def __reduce__(self):
        cls, (message, details) = super().__reduce__()
        details["expected"] = self.expected
        return (cls, (message, details))


_glrmask._set_error_classes(Error, RejectionError)

Tokenizer = _glrmask.Tokenizer
Grammar = _glrmask.Grammar
Warning = _glrmask.Warning
Compiler = _glrmask.Compiler
CompilerCacheStatistics = _glrmask.CompilerCacheStatistics
Constraint = _glrmask.Constraint
Limits = _glrmask.Limits
Matcher = _glrmask.Matcher
version = _glrmask.version
engine_names = _glrmask.engine_names
grammar_formats = _glrmask.grammar_formats
cache_dir = _glrmask.cache_dir
fill_next_token_bitmasks = _glrmask.fill_next_token_bitmasks
reset_token_bitmask = _glrmask.reset_token_bitmask
allow_only = _glrmask.allow_only
batch_accept_token = _glrmask.batch_accept_token
__version__ = _glrmask.version()


def _is_torch(value):
    return hasattr(value, "data_ptr") and hasattr(value, "device") and hasattr(value, "dtype")


def get_bitmask_shape(batch_size, vocab_size):
    """The shape of a bitmask for `batch_size` rows of `vocab_size` tokens: (rows, words)."""
    return (int(batch_size), (int(vocab_size) + 31) // 32)


def allocate_token_bitmask(batch_size, vocab_size, *, backend="numpy"):
    """A [batch_size, ceil(vocab_size / 32)] int32 bitmask with every bit set (all allowed):
    a numpy array, or with backend="torch" a CPU torch tensor (pinned when CUDA is there, for a
    fast copy to the device)."""
    shape = get_bitmask_shape(batch_size, vocab_size)
    if backend == "numpy":
        return _np.full(shape, -1, dtype=_np.int32)
    if backend == "torch":
        import torch

        pin = torch.cuda.is_available()
        return torch.full(shape, -1, dtype=torch.int32, pin_memory=pin)
    raise Error(f"unknown backend '{backend}' (expected numpy or torch)",
                {"code": "invalid argument"})


def batch_rollback(matchers, num_tokens=1):
    """Rolls each matcher back by `num_tokens` (one count for all, or one per matcher)."""
    matchers = list(matchers)
    counts = [num_tokens] * len(matchers) if isinstance(num_tokens, int) else list(num_tokens)
    if len(counts) != len(matchers):
        raise Error(f"batch_rollback: {len(matchers)} matchers but {len(counts)} counts",
                    {"code": "invalid argument"})
    for matcher, count in zip(matchers, counts):
        matcher.rollback(count)


def _apply_on_device(logits, bitmask, vocab_size, indices):
    """The torch operations for logits on an accelerator (the bitmask is copied there)."""
    import torch

    mask = bitmask if _is_torch(bitmask) else torch.from_numpy(_np.ascontiguousarray(bitmask))
    if mask.dtype != torch.int32:
        raise Error(f"the bitmask must hold int32 words (got {mask.dtype})",
                    {"code": "invalid argument"})
    mask = mask.to(logits.device, non_blocking=True)
    rows = logits if logits.dim() == 2 else logits.unsqueeze(0)
    mask = mask if mask.dim() == 2 else mask.unsqueeze(0)
    if indices is not None:
        index = torch.as_tensor(list(indices), device=logits.device, dtype=torch.long)
        rows_view, mask = rows.index_select(0, index), mask.index_select(0, index)
    else:
        rows_view = rows
        if mask.shape[0] < rows.shape[0]:
            raise Error(f"the bitmask has {mask.shape[0]} rows for {rows.shape[0]} rows of logits",
                        {"code": "invalid argument"})
        mask = mask[: rows.shape[0]]
    shifts = torch.arange(32, device=logits.device, dtype=torch.int32)
    allowed = ((mask.unsqueeze(-1) >> shifts) & 1).bool().flatten(-2)
    width = rows.shape[-1]
    limit = min(width, allowed.shape[-1], vocab_size or width)
    keep = torch.zeros((allowed.shape[0], width), dtype=torch.bool, device=logits.device)
    keep[:, :limit] = allowed[:, :limit]
    masked = rows_view.masked_fill(~keep, float("-inf"))
    if indices is not None:
        rows.index_copy_(0, index, masked)
    else:
        rows.copy_(masked)


def apply_token_bitmask_inplace(logits, bitmask, *, vocab_size=None, indices=None):
    """Sets logits to -inf where the bitmask's bit is clear, and past the bitmask's width or
    `vocab_size` (a model's padded vocabulary). `logits` is [batch, vocab] or [vocab] float32 or
    float16 (numpy) or float32/float16/bfloat16 (torch), `bitmask` [batch, words] or [words]
    int32; `indices` limits it to those rows. Host memory goes through glrmask's kernel; logits on
    an accelerator through torch operations there."""
    if _is_torch(logits) and logits.device.type != "cpu":
        _apply_on_device(logits, bitmask, vocab_size, indices)
        return
    _glrmask.apply_token_bitmask_inplace(logits, bitmask, vocab_size=vocab_size or 0,
                                         indices=list(indices) if indices is not None else [])


def _from_huggingface(tokenizer, vocab_size=None, stop_token_ids=None):
    """A glrmask Tokenizer from a Hugging Face tokenizer object (transformers'
    PreTrainedTokenizerFast, or a slow one with a sentencepiece or byte-level vocabulary).

    `vocab_size` is the model's (model.config.vocab_size) when its logits are wider than the
    tokenizer's ids; `stop_token_ids` default to the tokenizer's eos_token_id."""
    from . import hf

    return hf.tokenizer_from_huggingface(tokenizer, vocab_size=vocab_size,
                                         stop_token_ids=stop_token_ids)


Tokenizer.from_huggingface = staticmethod(_from_huggingface)


__all__ = [
    "Error",
    "RejectionError",
    "Tokenizer",
    "Grammar",
    "Warning",
    "Compiler",
    "CompilerCacheStatistics",
    "Constraint",
    "Limits",
    "Matcher",
    "allocate_token_bitmask",
    "get_bitmask_shape",
    "reset_token_bitmask",
    "allow_only",
    "fill_next_token_bitmasks",
    "apply_token_bitmask_inplace",
    "batch_accept_token",
    "batch_rollback",
    "cache_dir",
    "version",
    "engine_names",
    "grammar_formats",
]
