"""What the serving engines' structured-output requests become in glrmask: one function per request
kind, shared by the vLLM and SGLang adapters (glrmask.vllm, glrmask.sglang)."""

import json

import glrmask as _glrmask


def _unsupported(message):
    return _glrmask.Error(message, {"code": "unsupported"})


def choice_grammar(choices):
    """A Lark grammar whose sentences are exactly the given strings."""
    if not choices:
        raise _glrmask.Error("a choice request needs at least one string",
                             {"code": "invalid argument"})
    literals = " | ".join(json.dumps(str(c), ensure_ascii=False) for c in choices)
    return f"start: {literals}\n"


def is_lark(grammar):
    """vLLM's rule: a grammar with no `::=` on a line outside comments is Lark, else EBNF."""
    for line in grammar.splitlines():
        code = line.split("#", 1)[0].split("//", 1)[0]
        if "::=" in code:
            return False
    return True


def grammar_constraint(compiler, text):
    """A GRAMMAR/ebnf request: Lark, or GBNF/EBNF when the library has that front end."""
    if is_lark(text):
        return compiler.compile_lark(text)
    if "gbnf" in _glrmask.grammar_formats():
        return compiler.compile(_glrmask.Grammar.from_source("gbnf", text))
    raise _unsupported("EBNF (GBNF) grammars need the gbnf front end, which this glrmask build "
                       "does not have; send the grammar in Lark syntax")


def json_constraint(compiler, schema, *, any_whitespace=True):
    """A JSON request: the schema, with the whitespace the engines allow by default (any JSON
    whitespace) or the json.dumps layout."""
    if not isinstance(schema, str):
        schema = json.dumps(schema)
    whitespace = "flexible" if any_whitespace else "default"
    return compiler.compile_json_schema(schema, whitespace=whitespace)


def structural_tag_constraint(compiler, spec):
    """A structural-tag request (free text with tagged segments)."""
    if "structural_tag" in _glrmask.grammar_formats():
        text = spec if isinstance(spec, str) else json.dumps(spec)
        return compiler.compile(_glrmask.Grammar.from_source("structural_tag", text))
    raise _unsupported("structural tags need glrmask's structural-tag constraint, which this "
                       "build does not have")
