"""The Python module (import glrmask), run by CTest with Debian's python3 and pytest.

Fixture checks always run; the checks on real tokenizers and data need the setup cache and the
data folder (GLRMASK_CACHE / GLRMASK_DATA) and are skipped loudly without them.
"""

import json
import os
import pathlib
import re

import numpy as np
import pytest

import glrmask

from extras import need

SOURCE = pathlib.Path(__file__).resolve().parents[3]
FIXTURES = SOURCE / "tests" / "fixtures"


def byte_strings(alphabet):
    """Every string of 1 or 2 alphabet characters, as bytes, then "</s>" and "<pad>"."""
    pieces = [c.encode() for c in alphabet]
    pieces += [(a + b).encode() for a in alphabet for b in alphabet]
    return pieces + [b"</s>", b"<pad>"]


def small_tokenizer(alphabet="ab"):
    pieces = byte_strings(alphabet)
    return glrmask.Tokenizer.from_vocab(pieces, "raw", stop_ids=[len(pieces) - 2],
                                        special_ids=[len(pieces) - 1]), pieces


def bits(row, vocab_size):
    unpacked = np.unpackbits(np.ascontiguousarray(row).view(np.uint8), bitorder="little")
    return set(np.flatnonzero(unpacked[:vocab_size]).tolist())


def test_lazy_and_staged_engines_give_the_wfa_rows():
    tokenizer, pieces = small_tokenizer("ab ")
    grammar = 'start: "a"+ " "? "b"\n'
    wfa = glrmask.Constraint.from_lark(grammar, tokenizer, engine="wfa")
    for engine in ("lazy", "staged"):
        constraint = glrmask.Constraint.from_lark(grammar, tokenizer, engine=engine)
        assert constraint.engine == engine
        for prefix in (b"", b"a", b"aa ", b"ab"):
            rows = glrmask.allocate_token_bitmask(2, tokenizer.vocab_size)
            for index, c in enumerate((wfa, constraint)):
                matcher = glrmask.Matcher(c)
                assert matcher.accept_string(prefix)
                matcher.fill_next_token_bitmask(rows, index)
            assert (rows[0] == rows[1]).all(), (engine, prefix)


def test_mask_accept_refuse_rollback():
    tokenizer, pieces = small_tokenizer()
    stop = len(pieces) - 2
    constraint = glrmask.Constraint.from_lark('start: "a"+ "b"\n', tokenizer)
    assert constraint.engine == "wfa"
    matcher = glrmask.Matcher(constraint)
    bitmask = glrmask.allocate_token_bitmask(2, tokenizer.vocab_size)
    assert bitmask.dtype == np.int32 and bitmask.shape == (2, tokenizer.bitmask_words)
    matcher.fill_next_token_bitmask(bitmask, 1)
    allowed = {pieces[i] for i in bits(bitmask[1], tokenizer.vocab_size)}
    assert allowed == {b"a", b"aa", b"ab"}
    assert (bitmask[0] == -1).all()  # the other row is untouched
    assert not matcher.accept_token(pieces.index(b"b"))  # refused, nothing changes
    assert matcher.byte_offset == 0
    assert matcher.accept_token(pieces.index(b"ab"))
    assert matcher.is_accepting()
    matcher.fill_next_token_bitmask(bitmask, 0)
    assert bits(bitmask[0], tokenizer.vocab_size) == {stop}
    assert matcher.accept_token(stop)
    assert matcher.is_terminated()
    matcher.rollback(1)
    assert not matcher.is_terminated()
    with pytest.raises(glrmask.Error) as error:
        matcher.rollback(5)
    assert error.value.code == "state"


def test_typed_errors():
    tokenizer, pieces = small_tokenizer()
    with pytest.raises(glrmask.Error) as error:
        glrmask.Constraint.from_lark('start: "a"\nx: (\n', tokenizer, name="broken.lark")
    assert error.value.code == "grammar"
    assert error.value.file == "broken.lark" and error.value.line >= 2
    with pytest.raises(glrmask.Error) as error:
        glrmask.Constraint.from_json_schema('{"type": 3}', tokenizer)
    assert error.value.code == "schema" and error.value.json_pointer == "/type"
    constraint = glrmask.Constraint.from_lark('start: "a" B\nB: "b"\n', tokenizer)
    matcher = glrmask.Matcher(constraint)
    matcher.commit_token(pieces.index(b"a"))
    with pytest.raises(glrmask.RejectionError) as rejection:
        matcher.commit_token(pieces.index(b"aa"))
    assert rejection.value.code == "rejected"
    assert rejection.value.byte_offset == 1
    assert rejection.value.token == pieces.index(b"aa")
    assert "B" in rejection.value.expected
    assert matcher.byte_offset == 1  # unchanged
    with pytest.raises(glrmask.Error) as error:
        matcher.accept_token(len(pieces))
    assert error.value.code == "invalid argument" and error.value.token == len(pieces)
    with pytest.raises(glrmask.Error):
        matcher.fill_next_token_bitmask(np.zeros(1, dtype=np.int64))  # not int32: refused, not copied
    with pytest.raises(glrmask.Error):
        matcher.fill_next_token_bitmask(np.zeros((2, 4), dtype=np.int32)[:, ::2])  # strided
    with pytest.raises(glrmask.Error):
        matcher.fill_next_token_bitmask(glrmask.allocate_token_bitmask(1, 4), 3)  # no row 3


def test_batch_and_apply():
    tokenizer, pieces = small_tokenizer("ab")
    constraint = glrmask.Constraint.from_lark('start: ("a" | "b")* "b"\n', tokenizer)
    matchers = [glrmask.Matcher(constraint) for _ in range(16)]
    for i, matcher in enumerate(matchers):
        for _ in range(i % 3):
            assert matcher.accept_string("ab")
    batch = glrmask.allocate_token_bitmask(16, tokenizer.vocab_size)
    glrmask.fill_next_token_bitmasks(matchers, batch)
    single = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    for i, matcher in enumerate(matchers):
        matcher.fill_next_token_bitmask(single, 0)
        assert (single[0] == batch[i]).all()
    # A model's logits padded past the vocabulary: ids the row covers but the vocabulary lacks
    # are masked (their bits are zero), ids past the row's 32 * words bits are left alone.
    width = 32 * tokenizer.bitmask_words
    logits = np.zeros((16, width + 5), dtype=np.float32)
    glrmask.apply_token_bitmask_inplace(logits, batch)
    for i in range(16):
        allowed = bits(batch[i], tokenizer.vocab_size)
        finite = set(np.flatnonzero(np.isfinite(logits[i, :width])).tolist())
        assert finite == allowed
        assert not np.isfinite(logits[i, width:]).any()


def test_jump_forward_and_clone():
    pieces = [bytes([b]) for b in range(256)] + [b"<eos>"]
    tokenizer = glrmask.Tokenizer.from_vocab(pieces, "raw", stop_ids=[256])
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"],
              "additionalProperties": False}
    constraint = glrmask.Constraint.from_json_schema(json.dumps(schema), tokenizer)
    matcher = glrmask.Matcher(constraint)
    assert matcher.find_jump_forward_string() == '{"name": "'
    tokens = matcher.find_jump_forward_tokens()
    assert bytes(tokenizer.decode(tokens)) == b'{"name": "'
    branch = matcher.clone()
    for token in tokens:
        assert branch.accept_token(token)
    assert branch.byte_offset == 10 and matcher.byte_offset == 0


def test_json_property_order(tmp_path):
    pieces = [bytes([b]) for b in range(256)] + [b"<eos>"]
    tokenizer = glrmask.Tokenizer.from_vocab(pieces, "raw", stop_ids=[256])
    schema = json.dumps({"type": "object", "required": ["a", "b"],
                         "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}})
    reordered = b'{"b": 1, "a": 2}'
    in_order = glrmask.Constraint.from_json_schema(schema, tokenizer)
    assert not glrmask.Matcher(in_order).accept_string(reordered)
    any_order = glrmask.Constraint.from_json_schema(schema, tokenizer, property_order="any")
    path = tmp_path / "any.glrmask"
    any_order.save(str(path))
    for constraint in (any_order, glrmask.Constraint.load(str(path), tokenizer)):
        assert "any order" in constraint.description
        matcher = glrmask.Matcher(constraint)
        assert matcher.accept_string(reordered) and matcher.is_accepting()
        assert not glrmask.Matcher(constraint).accept_string(b'{"b": 1, "b": 2}')
    with pytest.raises(glrmask.Error) as error:
        glrmask.Constraint.from_json_schema(schema, tokenizer, property_order="sorted")
    assert error.value.code == "invalid argument"


def byte_tokenizer():
    pieces = [bytes([b]) for b in range(256)] + [b"<eos>"]
    return glrmask.Tokenizer.from_vocab(pieces, "raw", stop_ids=[256])


def test_json_registered_documents(tmp_path):
    tokenizer = byte_tokenizer()
    uri = "https://example.com/small.json"
    schema = json.dumps({"type": "array", "items": {"$ref": uri}})
    small = json.dumps({"type": "integer", "maximum": 5})
    with pytest.raises(glrmask.Error) as error:
        glrmask.Constraint.from_json_schema(schema, tokenizer)
    assert error.value.code == "schema" and uri in str(error.value)
    compiler = glrmask.Compiler(tokenizer)
    constraints = [glrmask.Constraint.from_json_schema(schema, tokenizer, documents={uri: small}),
                   glrmask.Constraint.from_json_schema(schema, tokenizer, documents=[(uri, small)]),
                   compiler.compile_json_schema(schema, documents={uri: small}),
                   glrmask.Constraint.compile(glrmask.Grammar.from_source(
                       "json_schema", schema, documents=[(uri, small)]), tokenizer)]
    path = tmp_path / "registered.glrmask"
    constraints[0].save(str(path))
    constraints.append(glrmask.Constraint.load(str(path), tokenizer))
    for constraint in constraints:
        assert "1 registered document" in constraint.description
        matcher = glrmask.Matcher(constraint)
        assert matcher.accept_string(b"[1, 5]") and matcher.is_accepting()
        assert not glrmask.Matcher(constraint).accept_string(b"[6]")
    for documents in ("not a dict", [(uri,)], {uri: 3}):
        with pytest.raises(glrmask.Error) as error:
            glrmask.Constraint.from_json_schema(schema, tokenizer, documents=documents)
        assert error.value.code == "invalid argument" and "documents" in str(error.value)


def test_json_format_annotation():
    tokenizer = byte_tokenizer()
    schema = json.dumps({"type": "string", "format": "date"})
    asserted = glrmask.Constraint.from_json_schema(schema, tokenizer)
    annotated = glrmask.Constraint.from_json_schema(schema, tokenizer, assert_format=False)
    assert "format as annotation" in annotated.description
    assert not glrmask.Matcher(asserted).accept_string(b'"x"')
    assert glrmask.Matcher(annotated).accept_string(b'"x"')
    for constraint in (asserted, annotated):
        matcher = glrmask.Matcher(constraint)
        assert matcher.accept_string(b'"2024-05-06"') and matcher.is_accepting()


def test_json_draft():
    tokenizer = byte_tokenizer()
    # Drafts 4 to 7 ignore the keywords beside a $ref; 2019-09 and 2020-12 apply them.
    schema = {"type": "object", "required": ["n"],
              "properties": {"n": {"$ref": "#/definitions/integer", "maximum": 3}},
              "definitions": {"integer": {"type": "integer"}}}
    text = json.dumps(schema)
    for draft, takes_5 in (("4", True), ("6", True), ("7", True), ("2019-09", False),
                           ("2020-12", False)):
        constraint = glrmask.Constraint.from_json_schema(text, tokenizer, draft=draft)
        assert glrmask.Matcher(constraint).accept_string(b'{"n": 5}') == takes_5, draft
        assert glrmask.Matcher(constraint).accept_string(b'{"n": 2}'), draft
        assert ("default draft " + draft in constraint.description) == (draft != "2020-12")
    default = glrmask.Constraint.from_json_schema(text, tokenizer)
    assert not glrmask.Matcher(default).accept_string(b'{"n": 5}')
    # A $schema in the root wins over the default draft.
    stated = dict(schema, **{"$schema": "http://json-schema.org/draft-07/schema#"})
    constraint = glrmask.Constraint.from_json_schema(json.dumps(stated), tokenizer)
    assert glrmask.Matcher(constraint).accept_string(b'{"n": 5}')
    for draft in ("8", "draft-07", ""):
        with pytest.raises(glrmask.Error) as error:
            glrmask.Constraint.from_json_schema(text, tokenizer, draft=draft)
        assert error.value.code == "invalid argument"
        assert "unknown JSON Schema draft '" + draft + "'" in str(error.value)
        assert "2019-09" in str(error.value)


def test_save_load(tmp_path):
    tokenizer, pieces = small_tokenizer()
    constraint = glrmask.Constraint.from_lark('start: "a"+ "b"\n', tokenizer)
    path = tmp_path / "ab.glrmask"
    constraint.save(str(path))
    loaded = glrmask.Constraint.load(str(path), tokenizer)
    assert loaded.engine == "wfa"
    a, b = glrmask.Matcher(constraint), glrmask.Matcher(loaded)
    rows = glrmask.allocate_token_bitmask(2, tokenizer.vocab_size)
    a.fill_next_token_bitmask(rows, 0)
    b.fill_next_token_bitmask(rows, 1)
    assert (rows[0] == rows[1]).all()
    other, _ = small_tokenizer("abc")
    with pytest.raises(glrmask.Error) as error:
        glrmask.Constraint.load(str(path), other)
    assert error.value.code == "artifact"


def test_limits(tmp_path):
    tokenizer, pieces = small_tokenizer("a")
    assert glrmask.Limits().max_step_work > 0
    with pytest.raises(glrmask.Error) as error:
        glrmask.Constraint.from_lark('start: "a"+\n', tokenizer, engine="wfa",
                                     limits=glrmask.Limits(max_parser_dwa_states=1))
    assert error.value.code == "limit" and "Limits::max_parser_dwa_states" in str(error.value)
    ambiguous = 'start: s\ns: s s | "a"\n'
    limits = glrmask.Limits(max_step_work=2000)
    constraint = glrmask.Constraint.from_lark(ambiguous, tokenizer, limits=limits)
    assert constraint.limits.max_step_work == 2000
    path = tmp_path / "ss.glrmask"
    constraint.save(str(path))
    loaded = glrmask.Constraint.load(str(path), tokenizer, limits=limits)
    for c in (constraint, loaded):
        matcher = glrmask.Matcher(c)
        with pytest.raises(glrmask.Error) as error:
            matcher.accept_bytes(b"a" * 200)
        assert error.value.code == "limit" and error.value.byte_offset == 0
        assert matcher.accept_bytes(b"aa") and matcher.is_accepting()


def test_torch_tensors_when_torch_is_installed():
    torch = need("torch")
    tokenizer, pieces = small_tokenizer()
    constraint = glrmask.Constraint.from_lark('start: "a"+ "b"\n', tokenizer)
    matcher = glrmask.Matcher(constraint)
    bitmask = torch.from_numpy(glrmask.allocate_token_bitmask(1, tokenizer.vocab_size))
    matcher.fill_next_token_bitmask(bitmask, 0)
    logits = torch.zeros((1, tokenizer.vocab_size))
    glrmask.apply_token_bitmask_inplace(logits, bitmask)
    finite = set(torch.nonzero(torch.isfinite(logits[0])).flatten().tolist())
    assert {pieces[i] for i in finite} == {b"a", b"aa", b"ab"}


def test_grammar_compiler_engines_and_warnings():
    tokenizer, _ = small_tokenizer("ab{}[]\":, 0123456789")
    # A grammar is made once, inspected, and compiled for any tokenizer.
    grammar = glrmask.Grammar.from_source("lark", 'start: "a"+ "b"\n', name="g.lark")
    assert grammar.format == "lark" and grammar.name == "g.lark"
    assert "start" in grammar.to_lark() and grammar.num_rules >= 1
    constraint = glrmask.Constraint.compile(grammar, tokenizer, engine="spanner")
    assert constraint.engine == "spanner"
    assert constraint.grammar.to_lark() == grammar.to_lark()
    # A lenient schema's ignored keyword is a warning, visible on the grammar and the constraint.
    schema = json.dumps({"type": "array", "items": {"type": "integer"}, "uniqueItems": True})
    with pytest.raises(glrmask.Error) as strict:
        glrmask.Grammar.from_source("json_schema", schema)
    assert strict.value.code == "schema" and strict.value.json_pointer == "/uniqueItems"
    lenient = glrmask.Grammar.from_source("json_schema", schema, lenient=True)
    assert len(lenient.warnings) == 1
    assert "uniqueItems" in str(lenient.warnings[0])
    assert lenient.warnings[0].location["json_pointer"] == "/uniqueItems"
    compiled = glrmask.Constraint.compile(lenient, tokenizer)
    assert [str(w) for w in compiled.warnings] == [str(w) for w in lenient.warnings]
    # Engines by name, the registry's, 'auto' first.
    names = glrmask.engine_names()
    assert names[0] == "auto" and {"wfa", "spanner", "oracle", "lazy", "staged"} <= set(names)
    with pytest.raises(glrmask.Error) as unknown:
        glrmask.Constraint.compile(grammar, tokenizer, engine="no-such-engine")
    assert unknown.value.code == "invalid argument"
    with pytest.raises(glrmask.Error) as unknown_format:
        glrmask.Grammar.from_source("no-such-format", "x")
    assert unknown_format.value.code == "invalid argument"
    assert "lark" in glrmask.grammar_formats() and "json_schema" in glrmask.grammar_formats()
    assert glrmask.__version__ == glrmask.version() and glrmask.__version__.count(".") == 2
    # A compiler compiles a source once and answers repeats from its cache.
    compiler = glrmask.Compiler(tokenizer, max_entries=2)
    first = compiler.compile_json_schema('{"type": "integer"}')
    again = compiler.compile_json_schema('{"type": "integer"}')
    stats = compiler.cache_statistics
    assert (stats.misses, stats.hits, stats.entries) == (1, 1, 1)
    assert first.description == again.description
    compiler.compile_regex("a+")
    compiler.compile_regex("b+")
    stats = compiler.cache_statistics
    assert stats.entries == 2 and stats.evictions == 1


def test_every_public_name_has_a_docstring():
    """Each public class, function, method and property says what it does (beyond the signature
    line pybind11 writes for any function)."""
    import inspect

    def described(obj):
        doc = inspect.getdoc(obj) or ""
        lines = [line for line in doc.splitlines() if line.strip()]
        # pybind11 starts a docstring with "name(arguments) -> result"; overloads add numbered
        # signatures. What is left must be prose.
        prose = [line for line in lines if not ("(" in line and ") ->" in line)]
        return bool(prose)

    missing = []
    for name in glrmask.__all__:
        obj = getattr(glrmask, name)
        if not described(obj):
            missing.append(name)
        if inspect.isclass(obj) and obj.__module__.startswith("glrmask"):
            for member, value in vars(obj).items():
                if member.startswith("_"):
                    continue
                if isinstance(value, (staticmethod, classmethod)):
                    value = value.__func__
                if not described(value):
                    missing.append(f"{name}.{member}")
    assert not missing, f"without a docstring: {missing}"


REGEX_CASES = [
    # Alternatives whose first is a prefix of a later one: re.match would stop at the first.
    "ab|abab", "a|ab|abc", "(a|ab)(c|bca)", "(a|ab)*c?",
    # Nullable patterns: the empty text is a sentence.
    "(ab)*", "[ab]*", "a?b?", "(a|b|)c?",
    # Lazy and greedy quantifiers mean the same language.
    "a*?b", "(a+?)(b*?)", "a{1,3}?b?", "(?:ab|a)+?",
    "[^c]+c", "a(b|c)*a", "(a|b)*abb",
]


@pytest.mark.parametrize("engine", ["wfa", "spanner", "lazy", "staged", "oracle"])
@pytest.mark.parametrize("pattern", REGEX_CASES)
def test_a_regex_constraint_takes_exactly_the_full_matches(pattern, engine):
    """Constraint.from_regex: a text is viable iff some re.fullmatch of the pattern extends it,
    a sentence iff it is a full match, and every mask allows exactly the tokens that keep it
    viable (and the stop id exactly at a full match). Brute force over the alphabet: each of
    these patterns completes a viable text within four more bytes, so the full matches of up to
    eight bytes decide every text of up to four."""
    import itertools
    import re

    tokenizer, pieces = small_tokenizer("abc")
    constraint = glrmask.Constraint.from_regex(pattern, tokenizer, engine=engine)
    assert constraint.engine == engine
    texts = ["".join(p) for n in range(9) for p in itertools.product("abc", repeat=n)]
    full = {t for t in texts if re.fullmatch(pattern, t)}
    viable = {t[:i] for t in full for i in range(len(t) + 1)}
    bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    ordinary = [(token, piece) for token, piece in enumerate(pieces)
                if not tokenizer.is_special(token) and token not in tokenizer.stop_ids]
    assert all(len(piece) <= 2 for _, piece in ordinary)
    for text in (t for t in texts if len(t) <= 4):
        matcher = glrmask.Matcher(constraint)
        assert matcher.accept_string(text) == (text in viable), (pattern, text)
        if text not in viable:
            continue
        assert matcher.is_accepting() == (text in full), (pattern, text)
        if len(text) > 2:
            continue
        matcher.fill_next_token_bitmask(bitmask, 0)
        expected = {token for token, piece in ordinary if text + piece.decode() in viable}
        if text in full:
            expected |= set(tokenizer.stop_ids)
        assert bits(bitmask[0], tokenizer.vocab_size) == expected, (pattern, text)


def balanced(text):
    depth = 0
    for c in text:
        depth += 1 if c == "(" else -1
        if depth < 0:
            return False
    return depth == 0


GBNF_CASES = [
    # A run that could swallow the next one: "1 2" and "12" are both two numbers.
    ('root ::= [0-9]+ " "? [0-9]+\n', "12 ", lambda t: re.fullmatch(r"[0-9]+ ?[0-9]+", t)),
    # Optional spaces before a required newline, and a name that is also a keyword.
    ('root ::= ("if" " " | [a-z]+ " "*) "\\n"\n', "if \n",
     lambda t: re.fullmatch(r"(if |[a-z]+ *)\n", t)),
    # Recursion, left recursion and the empty sentence.
    ('root ::= "(" root ")" root | ""\n', "()", balanced),
    ('root ::= root "a" | "b"\n', "ab", lambda t: re.fullmatch(r"ba*", t)),
]


@pytest.mark.parametrize("engine", ["wfa", "lazy", "oracle"])
@pytest.mark.parametrize("case", range(len(GBNF_CASES)))
def test_a_gbnf_constraint_takes_exactly_the_grammar_language(case, engine):
    """Grammar.from_source("gbnf"): whole texts accepted exactly when they are sentences, and the
    masks after every short viable text exactly the tokens that keep it viable (brute force over
    the alphabet, each case's sentences decided by a regex or by hand)."""
    import itertools

    text, alphabet, is_sentence = GBNF_CASES[case]
    tokenizer, pieces = small_tokenizer(alphabet)
    constraint = glrmask.Constraint.compile(glrmask.Grammar.from_source("gbnf", text), tokenizer,
                                            engine=engine)
    texts = ["".join(p) for n in range(9) for p in itertools.product(alphabet, repeat=n)]
    full = {t for t in texts if is_sentence(t)}
    viable = {t[:i] for t in full for i in range(len(t) + 1)}
    bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    ordinary = [(token, piece) for token, piece in enumerate(pieces)
                if not tokenizer.is_special(token) and token not in tokenizer.stop_ids]
    for prefix in (t for t in texts if len(t) <= 4):
        matcher = glrmask.Matcher(constraint)
        assert matcher.accept_string(prefix) == (prefix in viable), (text, prefix)
        if prefix not in viable:
            continue
        assert matcher.is_accepting() == (prefix in full), (text, prefix)
        if len(prefix) > 2:
            continue
        matcher.fill_next_token_bitmask(bitmask, 0)
        expected = {token for token, piece in ordinary if prefix + piece.decode() in viable}
        if prefix in full:
            expected |= set(tokenizer.stop_ids)
        assert bits(bitmask[0], tokenizer.vocab_size) == expected, (text, prefix)
    assert "gbnf" in glrmask.grammar_formats()


@pytest.mark.parametrize("engine", ["wfa", "lazy", "spanner", "staged"])
@pytest.mark.parametrize("trigger", ["text", "token"])
def test_a_structural_tag_is_the_oracle_s_on_tool_calls_and_random_walks(engine, trigger):
    """Constraint.from_structural_tag (a dict): free text, a trigger as text or as a special
    token, two tools whose arguments are JSON Schemas; the engine's rows are the oracle's along
    teacher-forced calls and random walks."""
    import random

    pieces = [b"<tool_call>", b"</tool_call>"] + [bytes([c]) for c in range(0x20, 0x7F)]
    pieces += [b"<tool_call>", b'{"', b'": ', b"</s>"]
    stop = len(pieces) - 1
    tokenizer = glrmask.Tokenizer.from_vocab(pieces, "raw", stop_ids=[stop],
                                             special_ids=[0, 1, stop])
    byte = {chr(c): 2 + c - 0x20 for c in range(0x20, 0x7F)}
    opening = "<tool_call>" if trigger == "text" else {"token": "<tool_call>"}
    tool = lambda name, schema: {  # noqa: E731
        "begin": [opening, '{"name": "%s", "arguments": ' % name],
        "content": {"type": "json_schema", "json_schema": schema},
        "end": ["}", {"token": "</tool_call>"}]}
    tag = {"type": "structural_tag", "format": {"type": "triggered_tags", "triggers": [opening],
           "tags": [tool("weather", {"type": "object", "properties": {"city": {"type": "string"}},
                                     "required": ["city"]}),
                    tool("add", {"type": "array", "items": {"type": "integer"}})]}}
    constraint = glrmask.Constraint.from_structural_tag(tag, tokenizer, engine=engine)
    oracle = glrmask.Constraint.from_structural_tag(json.dumps(tag), tokenizer, engine="oracle")
    rows = glrmask.allocate_token_bitmask(2, tokenizer.vocab_size)

    def compare(matcher, reference):
        matcher.fill_next_token_bitmask(rows, 0)
        reference.fill_next_token_bitmask(rows, 1)
        assert (rows[0] == rows[1]).all()
        return bits(rows[1], tokenizer.vocab_size)

    opener = [byte[c] for c in "<tool_call>"] if trigger == "text" else [0]
    call = opener + [byte[c] for c in '{"name": "add", "arguments": [1, 2]}'] + [1]
    text = [byte[c] for c in 'Hi "x" {y}. '] + call + [byte[c] for c in " ok"]
    matcher, reference = glrmask.Matcher(constraint), glrmask.Matcher(oracle)
    for token in text:
        assert token in compare(matcher, reference)
        assert matcher.accept_token(token) and reference.accept_token(token)
    assert matcher.is_accepting()
    walker = random.Random(42)
    for _ in range(4):
        matcher, reference = glrmask.Matcher(constraint), glrmask.Matcher(oracle)
        for _ in range(50):
            allowed = sorted(compare(matcher, reference) - {stop})
            if not allowed:
                break
            token = walker.choice(allowed)
            assert matcher.accept_token(token) and reference.accept_token(token)


@pytest.mark.parametrize("engine", ["wfa", "lazy", "oracle", "spanner", "staged"])
def test_special_tokens_in_a_grammar_are_matched_by_id_never_by_text(engine):
    """GBNF's <name>, <[id]> and (!<...>)*: the token's id is allowed where the grammar names it,
    its text never; inside the negation every token but the closing one (its text included), and
    the masks along a token sequence are the oracle's."""
    pieces = [b"<think>", b"</think>", b"<tool_call>"]            # specials 0-2
    pieces += [bytes([c]) for c in range(0x20, 0x7F)] + [b"<think>", b"\xff", b"</s>"]
    think, end_think, tool_call = 0, 1, 2
    think_text, lead_byte, stop = len(pieces) - 3, len(pieces) - 2, len(pieces) - 1
    tokenizer = glrmask.Tokenizer.from_vocab(pieces, "raw", stop_ids=[stop],
                                             special_ids=[0, 1, 2, stop])
    byte_token = {chr(c): 3 + c - 0x20 for c in range(0x20, 0x7F)}
    grammar = glrmask.Grammar.from_source(
        "gbnf", 'root ::= <think> (!<[1]>)* </think> "ok"\n')
    constraint = glrmask.Constraint.compile(grammar, tokenizer, engine=engine)
    oracle = glrmask.Constraint.compile(grammar, tokenizer, engine="oracle")
    matcher, reference = glrmask.Matcher(constraint), glrmask.Matcher(oracle)
    bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    expected = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)

    def mask():
        matcher.fill_next_token_bitmask(bitmask, 0)
        reference.fill_next_token_bitmask(expected, 0)
        assert bits(bitmask[0], tokenizer.vocab_size) == bits(expected[0], tokenizer.vocab_size)
        return bits(bitmask[0], tokenizer.vocab_size)

    assert mask() == {think}
    assert not glrmask.Matcher(constraint).accept_token(think_text)
    assert not glrmask.Matcher(constraint).accept_bytes(b"<think>")
    assert matcher.accept_token(think) and reference.accept_token(think)
    for token in [byte_token[c] for c in "hi <"] + [tool_call, think_text, think]:
        allowed = mask()
        assert token in allowed and stop not in allowed and lead_byte not in allowed
        assert end_think in allowed
        assert matcher.accept_token(token) and reference.accept_token(token)
    assert matcher.accept_token(end_think) and reference.accept_token(end_think)
    assert mask() == {byte_token["o"]}
    for token in (byte_token["o"], byte_token["k"]):
        assert matcher.accept_token(token)
    assert matcher.is_accepting()
    with pytest.raises(glrmask.Error, match="no token of the"):
        glrmask.Constraint.compile(glrmask.Grammar.from_source("gbnf", "root ::= <nothere>\n"),
                                   tokenizer)
