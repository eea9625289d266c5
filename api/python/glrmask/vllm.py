"""glrmask as a vLLM structured-output backend (vLLM's v1 engine; the interface is that of
vllm 0.33.0, `vllm/v1/structured_output/backend_types.py`).

vLLM has no plugin point for structured-output backends: its config names a fixed list. This
module gives the two classes vLLM's engine calls (`GlrmaskBackend`, a `StructuredOutputBackend`,
and `GlrmaskGrammar`, a `StructuredOutputGrammar`) and `register()`, which a
`vllm.general_plugins` entry point runs in every vLLM process: with GLRMASK_VLLM=1 in the
environment it makes the requests vLLM routes to its `xgrammar` backend go to glrmask instead.

    pip install glrmask vllm==0.33.0
    GLRMASK_VLLM=1 vllm serve MODEL --structured-outputs-config.backend xgrammar

Request kinds: JSON (a schema), JSON_OBJECT, REGEX, GRAMMAR (Lark; EBNF when the library has its
GBNF front end), CHOICE (a JSON list of strings) and STRUCTURAL_TAG (when the library has
structural tags). What vLLM calls and in which order (compile on a worker thread, fill rows on
states advanced by the draft tokens and rolled back, accept after the forward, validate drafts)
is replayed by tests/api/python/test_adapters.py without vLLM: vllm 0.33.0 pins torch 2.14.0,
whose Linux wheels bring several GB of CUDA libraries, which the project's test machines (no GPU)
do not install.
"""

import enum
import os

import glrmask as _glrmask
from glrmask import _requests

try:
    from vllm.v1.structured_output.backend_types import (  # type: ignore
        StructuredOutputBackend as _BackendBase,
        StructuredOutputGrammar as _GrammarBase,
        StructuredOutputOptions,
    )
except ImportError:  # vLLM absent: the same shapes, so the adapter can be driven and tested.
    _BackendBase = object
    _GrammarBase = object

    class StructuredOutputOptions(enum.Enum):  # type: ignore[no-redef]
        """vLLM's request kinds (StructuredOutputOptions)."""
        JSON = enum.auto()
        JSON_OBJECT = enum.auto()
        REGEX = enum.auto()
        GRAMMAR = enum.auto()
        CHOICE = enum.auto()
        STRUCTURAL_TAG = enum.auto()


class GlrmaskGrammar(_GrammarBase):
    """One request's state: a glrmask Matcher with vLLM's method names."""

    def __init__(self, constraint, *, stop_token_ids=None, max_rollback=64):
        self.constraint = constraint
        self.matcher = _glrmask.Matcher(
            constraint, max_rollback=max(max_rollback, 1),
            stop_token_ids=list(stop_token_ids) if stop_token_ids else None)
        self.num_processed_tokens = 0

    def accept_tokens(self, request_id, tokens):
        """Advances over `tokens`; True when all were accepted. Tokens after the text has ended
        are ignored (the engine trims at the stop token itself). A refusal leaves the state as it
        was before the call."""
        taken = 0
        for token in tokens:
            if self.matcher.is_terminated():
                break
            if not self.matcher.accept_token(int(token)):
                if taken:
                    self.matcher.rollback(taken)
                return False
            taken += 1
        self.num_processed_tokens += taken
        return True

    def validate_tokens(self, tokens):
        """The longest prefix of `tokens` the constraint allows; the state is unchanged."""
        return list(tokens[:self.matcher.validate_tokens([int(t) for t in tokens])])

    def rollback(self, num_tokens):
        self.matcher.rollback(num_tokens)
        self.num_processed_tokens -= num_tokens

    def fill_bitmask(self, bitmask, batch_index):
        self.matcher.fill_next_token_bitmask(bitmask, batch_index)

    def is_terminated(self):
        return self.matcher.is_terminated()

    def reset(self):
        self.matcher.reset()
        self.num_processed_tokens = 0


class GlrmaskBackend(_BackendBase):
    """vLLM's engine-level backend: the tokenizer made once from vLLM's, a Compiler with a cache
    of compiled constraints, and the bitmask vLLM fills (a CPU int32 torch tensor as wide as the
    model's padded vocabulary)."""

    def __init__(self, vllm_config, tokenizer, vocab_size):
        self.vllm_config = vllm_config
        self.tokenizer = tokenizer
        self.vocab_size = vocab_size
        self.__post_init__()

    def __post_init__(self):
        self.glrmask_tokenizer = _glrmask.Tokenizer.from_huggingface(self.tokenizer,
                                                                     vocab_size=self.vocab_size)
        self.compiler = _glrmask.Compiler(self.glrmask_tokenizer, max_entries=256)
        config = getattr(self.vllm_config, "structured_outputs_config", None)
        self.any_whitespace = not getattr(config, "disable_any_whitespace", False)
        speculative = getattr(self.vllm_config, "speculative_config", None)
        self.num_speculative_tokens = getattr(speculative, "num_speculative_tokens", 0) or 0

    def compile_grammar(self, request_type, grammar_spec, stop_token_ids=None):
        kind = getattr(request_type, "name", str(request_type))
        if kind == "JSON":
            constraint = _requests.json_constraint(self.compiler, grammar_spec,
                                                   any_whitespace=self.any_whitespace)
        elif kind == "JSON_OBJECT":
            constraint = _requests.json_constraint(self.compiler, '{"type": "object"}',
                                                   any_whitespace=self.any_whitespace)
        elif kind == "REGEX":
            constraint = self.compiler.compile_regex(grammar_spec)
        elif kind == "GRAMMAR":
            constraint = _requests.grammar_constraint(self.compiler, grammar_spec)
        elif kind == "CHOICE":
            import json
            constraint = self.compiler.compile_lark(
                _requests.choice_grammar(json.loads(grammar_spec)))
        elif kind == "STRUCTURAL_TAG":
            constraint = _requests.structural_tag_constraint(self.compiler, grammar_spec)
        else:
            raise _glrmask.Error(f"unknown structured-output request type {kind}",
                                 {"code": "invalid argument"})
        return GlrmaskGrammar(constraint, stop_token_ids=stop_token_ids,
                              max_rollback=max(self.num_speculative_tokens, 64))

    def allocate_token_bitmask(self, max_num_seqs):
        return _glrmask.allocate_token_bitmask(max_num_seqs, self.vocab_size, backend="torch")

    def destroy(self):
        self.compiler.clear_cache()


def validate_request(params):
    """What vLLM's front end calls on a request before it is queued (its validate_xgrammar_grammar):
    refuses, with ValueError, a request whose grammar glrmask cannot compile."""
    so = getattr(params, "structured_outputs", params)
    try:
        if getattr(so, "regex", None):
            _glrmask.Grammar.from_source("regex", so.regex)
        elif getattr(so, "grammar", None):
            text = so.grammar
            fmt = "lark" if _requests.is_lark(text) else "gbnf"
            if fmt not in _glrmask.grammar_formats():
                raise _glrmask.Error("EBNF grammars need the gbnf front end", {"code": "unsupported"})
            _glrmask.Grammar.from_source(fmt, text)
        elif getattr(so, "json", None) is not None:
            schema = so.json if isinstance(so.json, str) else __import__("json").dumps(so.json)
            _glrmask.Grammar.from_source("json_schema", schema)
    except _glrmask.Error as error:
        raise ValueError(str(error)) from error


def register():
    """The `vllm.general_plugins` entry point. With GLRMASK_VLLM=1 it routes vLLM's xgrammar
    backend to glrmask (vllm 0.33.0's module layout); otherwise it does nothing."""
    if os.environ.get("GLRMASK_VLLM") != "1":
        return
    import vllm.v1.structured_output as structured_output  # type: ignore
    import vllm.v1.structured_output.backend_xgrammar as backend_xgrammar  # type: ignore

    structured_output.XgrammarBackend = GlrmaskBackend
    backend_xgrammar.validate_xgrammar_grammar = validate_request


__all__ = ["GlrmaskBackend", "GlrmaskGrammar", "StructuredOutputOptions", "register",
           "validate_request"]
