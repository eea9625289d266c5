"""glrmask for Hugging Face transformers: a LogitsProcessor that keeps every sequence of
`model.generate(...)` inside its constraint.

    tokenizer = glrmask.Tokenizer.from_huggingface(hf_tokenizer, vocab_size=model.config.vocab_size)
    constraint = glrmask.Constraint.from_json_schema(schema, tokenizer)
    processor = glrmask.hf.LogitsProcessor(constraint)
    out = model.generate(**inputs, logits_processor=[processor], max_new_tokens=256)

The processor is stateful and serves one `generate` call: on its first call it makes one matcher
per row of the batch and remembers the prompt length; on each later call it feeds every row the
tokens appended since (one per step, more after assisted decoding, and it rolls back when
assisted decoding calls it again with a shorter prefix). Logits wider than the tokenizer (a
model's padded vocabulary) are masked past the tokenizer's ids. A row whose text has ended keeps
only its stop ids allowed, so that sampling stays defined while `generate` pads the finished row.
"""

import glrmask as _glrmask

try:  # transformers is optional: without it the class is a plain callable of the same shape.
    from transformers import LogitsProcessor as _Base
except ImportError:  # pragma: no cover - exercised where transformers is absent
    _Base = object


def _stop_ids(tokenizer, stop_token_ids):
    if stop_token_ids is None:
        stop_token_ids = getattr(tokenizer, "eos_token_id", None)
    if stop_token_ids is None:
        raise _glrmask.Error("the tokenizer has no eos_token_id; pass stop_token_ids",
                             {"code": "invalid argument"})
    if isinstance(stop_token_ids, int):
        return [stop_token_ids]
    return [int(i) for i in stop_token_ids]


def _vocab_type(tokenizer):
    """How a slow tokenizer spells its tokens: sentencepiece pieces ('▁' for a space, <0xNN> for
    bytes), GPT-2's byte alphabet, or the bytes themselves."""
    if hasattr(tokenizer, "sp_model") or hasattr(tokenizer, "sp_model_kwargs"):
        return "byte_fallback"
    if hasattr(tokenizer, "byte_encoder"):
        return "byte_level"
    return "raw"


def tokenizer_from_huggingface(tokenizer, *, vocab_size=None, stop_token_ids=None):
    """glrmask.Tokenizer.from_huggingface: a fast tokenizer through its tokenizer.json (exactly
    what it encodes with), a slow one through its vocabulary."""
    stops = _stop_ids(tokenizer, stop_token_ids)
    size = int(vocab_size or 0)
    backend = getattr(tokenizer, "backend_tokenizer", None)
    name = getattr(tokenizer, "name_or_path", "") or type(tokenizer).__name__
    if backend is not None:
        return _glrmask.Tokenizer.from_tokenizer_json(backend.to_str(), stop_ids=stops,
                                                      vocab_size=size, name=str(name))
    vocab = tokenizer.get_vocab()
    count = max(vocab.values()) + 1 if vocab else 0
    pieces = [b""] * count
    present = [False] * count
    for piece, index in vocab.items():
        pieces[index] = piece.encode("utf-8")
        present[index] = True
    special = set(int(i) for i in getattr(tokenizer, "all_special_ids", []))
    special.update(int(i) for i in getattr(tokenizer, "added_tokens_decoder", {}))
    for index, here in enumerate(present):
        if not here:  # a hole in the ids: a placeholder no mask allows
            pieces[index] = f"<glrmask:unused:{index}>".encode()
            special.add(index)
    special.update(stops)
    return _glrmask.Tokenizer.from_vocab(pieces, _vocab_type(tokenizer), stops,
                                         sorted(i for i in special if i < count),
                                         vocab_size=size)


class LogitsProcessor(_Base):
    """Masks `scores` ([batch, vocab] logits) with each row's constraint.

    `constraints` is one Constraint for every row, or a list with one per row. `max_rollback`
    bounds how far assisted decoding may take a row back. Use a new processor per `generate`."""

    def __init__(self, constraints, *, max_rollback=64):
        if isinstance(constraints, _glrmask.Constraint):
            constraints = [constraints]
        constraints = list(constraints)
        if not constraints:
            raise _glrmask.Error("LogitsProcessor needs at least one constraint",
                                 {"code": "invalid argument"})
        self._constraints = constraints
        self._max_rollback = max_rollback
        self._matchers = None
        self._fed = None          # per row: input_ids columns the matcher has consumed
        self._bitmask = None
        self._prompt_length = None

    def _start(self, input_ids):
        batch = int(input_ids.shape[0])
        if len(self._constraints) not in (1, batch):
            raise _glrmask.Error(
                f"LogitsProcessor has {len(self._constraints)} constraints for a batch of {batch}",
                {"code": "invalid argument"})
        constraints = (self._constraints * batch if len(self._constraints) == 1
                       else self._constraints)
        self._matchers = [_glrmask.Matcher(c, max_rollback=self._max_rollback)
                          for c in constraints]
        self._prompt_length = int(input_ids.shape[1])
        self._fed = [self._prompt_length] * batch

    def _feed(self, row, ids):
        """Brings row `row`'s matcher to the prefix `ids` (the row's input_ids)."""
        matcher = self._matchers[row]
        length = len(ids)
        fed = self._fed[row]
        if length < fed:  # assisted decoding asked again about a shorter prefix
            back = min(fed - length, matcher.rollback_capacity)
            matcher.rollback(back)
            fed -= back
        for position in range(fed, length):
            if matcher.is_terminated():
                break  # the row has ended: generate pads it
            if not matcher.accept_token(int(ids[position])):
                raise _glrmask.RejectionError(
                    f"row {row}: token {int(ids[position])} at position {position} is not "
                    "allowed by the constraint (was the processor reused across generate calls?)",
                    {"code": "rejected", "token": int(ids[position])})
        self._fed[row] = length

    def __call__(self, input_ids, scores):
        if self._matchers is None:
            self._start(input_ids)
        elif int(input_ids.shape[0]) != len(self._matchers):
            raise _glrmask.Error("the batch size changed between calls; use a new processor",
                                 {"code": "state"})
        ids = input_ids.tolist() if hasattr(input_ids, "tolist") else input_ids
        for row, row_ids in enumerate(ids):
            self._feed(row, row_ids)
        width = int(scores.shape[-1])
        if self._bitmask is None or self._bitmask.shape != (len(self._matchers), (width + 31) // 32):
            self._bitmask = _glrmask.allocate_token_bitmask(len(self._matchers), width)
        live = [i for i, m in enumerate(self._matchers) if not m.is_terminated()]
        if live:
            _glrmask.fill_next_token_bitmasks([self._matchers[i] for i in live], self._bitmask,
                                              indices=live)
        for i, matcher in enumerate(self._matchers):
            if matcher.is_terminated():
                _glrmask.allow_only(self._bitmask, i, matcher.stop_token_ids)
        _glrmask.apply_token_bitmask_inplace(scores, self._bitmask)
        return scores

    @property
    def matchers(self):
        """The rows' matchers (after the first call), e.g. to check is_accepting()."""
        return list(self._matchers or [])


__all__ = ["LogitsProcessor", "tokenizer_from_huggingface"]
