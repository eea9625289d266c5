"""What a serving stack calls besides fill and accept, through the Python module: tokenizers and
constraints serialized and pickled (the copy gives the original's rows), a request's own stop ids,
terminate_without_stop_token, accept_tokens / validate_tokens, batched accept and rollback, and
the bitmask helpers. The C++ side of each is tests/api/serving_options_test.cpp; these check that
the binding passes every argument through and that misuse is a clear error."""

import pickle
import random

import numpy as np
import pytest

import glrmask

from test_glrmask import SOURCE, bits, small_tokenizer


def row_of(matcher, vocab_size):
    bitmask = glrmask.allocate_token_bitmask(1, vocab_size)
    matcher.fill_next_token_bitmask(bitmask, 0)
    return bits(bitmask[0], vocab_size)


def walk_rows(constraint, vocab_size, seed, steps=12):
    """The rows of a random walk of allowed tokens (the same walk for the same rows)."""
    rng = random.Random(seed)
    matcher = glrmask.Matcher(constraint)
    rows = []
    for _ in range(steps):
        if matcher.is_terminated():
            break
        row = row_of(matcher, vocab_size)
        rows.append(row)
        assert matcher.accept_token(rng.choice(sorted(row)))
    return rows


def test_tokenizers_and_constraints_survive_serialize_and_pickle():
    # The space too: the default JSON layout is json.dumps's, `{"a": 1}`.
    tokenizer, pieces = small_tokenizer('ab{}":, 0123456789')
    for copy in (glrmask.Tokenizer.deserialize(tokenizer.serialize()),
                 pickle.loads(pickle.dumps(tokenizer))):
        assert copy.vocab_size == tokenizer.vocab_size and copy.stop_ids == tokenizer.stop_ids
        assert [copy.token_bytes(i) for i in range(copy.vocab_size)] == pieces
        assert [copy.is_special(i) for i in range(copy.vocab_size)] == \
            [tokenizer.is_special(i) for i in range(tokenizer.vocab_size)]
    schema = '{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}'
    for engine in ("wfa", "lazy"):
        constraint = glrmask.Constraint.from_json_schema(schema, tokenizer, engine=engine)
        expected = walk_rows(constraint, tokenizer.vocab_size, seed=3)
        assert len(expected) > 3
        copies = [glrmask.Constraint.deserialize(constraint.serialize(), tokenizer),
                  pickle.loads(pickle.dumps(constraint))]
        for copy in copies:
            assert copy.engine == constraint.engine
            assert walk_rows(copy, tokenizer.vocab_size, seed=3) == expected
    # Bytes that are not a saved constraint, and a constraint for another tokenizer, are refused.
    with pytest.raises(glrmask.Error) as garbage:
        glrmask.Constraint.deserialize(b"not a constraint", tokenizer)
    assert garbage.value.code == "artifact"
    other, _ = small_tokenizer("xy")
    with pytest.raises(glrmask.Error):
        glrmask.Constraint.deserialize(constraint.serialize(), other)
    with pytest.raises(glrmask.Error):
        glrmask.Tokenizer.deserialize(b"\x00" * 16)


def test_a_matchers_own_stop_ids_replace_the_tokenizers():
    tokenizer, pieces = small_tokenizer("ab")
    constraint = glrmask.Constraint.from_regex("(ab)+", tokenizer)
    aa = pieces.index(b"aa")
    default_stop = tokenizer.stop_ids[0]
    matcher = glrmask.Matcher(constraint, stop_token_ids=[aa])
    assert matcher.stop_token_ids == [aa]
    assert aa not in row_of(matcher, tokenizer.vocab_size)
    assert matcher.accept_string("ab")
    row = row_of(matcher, tokenizer.vocab_size)
    assert aa in row and default_stop not in row
    assert not matcher.accept_token(default_stop)
    assert row_of(matcher.clone(), tokenizer.vocab_size) == row  # the options go with a clone
    assert matcher.accept_token(aa) and matcher.is_terminated()
    assert glrmask.Matcher(constraint).stop_token_ids == tokenizer.stop_ids
    with pytest.raises(glrmask.Error) as outside:
        glrmask.Matcher(constraint, stop_token_ids=[tokenizer.vocab_size])
    assert outside.value.code == "invalid argument"


def test_terminate_without_stop_token_ends_a_text_nothing_may_follow():
    tokenizer, _ = small_tokenizer("ab")
    constraint = glrmask.Constraint.from_regex("ab(ab)?", tokenizer)
    matcher = glrmask.Matcher(constraint, terminate_without_stop_token=True)
    assert matcher.accept_string("ab") and not matcher.is_terminated()
    assert matcher.accept_string("ab") and matcher.is_terminated()
    plain = glrmask.Matcher(constraint)
    assert plain.accept_string("abab") and not plain.is_terminated()
    assert plain.accept_token(tokenizer.stop_ids[0]) and plain.is_terminated()


def test_accept_tokens_takes_all_or_none_and_validate_tokens_changes_nothing():
    tokenizer, pieces = small_tokenizer("ab")
    constraint = glrmask.Constraint.from_regex("(ab)+", tokenizer)
    a, b, ab = pieces.index(b"a"), pieces.index(b"b"), pieces.index(b"ab")
    stop = tokenizer.stop_ids[0]
    matcher = glrmask.Matcher(constraint)
    before = row_of(matcher, tokenizer.vocab_size)
    assert matcher.validate_tokens([a, b, b]) == 2
    assert not matcher.accept_tokens([a, b, b])
    assert matcher.byte_offset == 0 and row_of(matcher, tokenizer.vocab_size) == before
    assert matcher.validate_tokens([a, b, ab, stop]) == 4 and matcher.byte_offset == 0
    assert matcher.accept_tokens([a, b, ab, stop]) and matcher.is_terminated()
    matcher.rollback(2)  # one step per token
    assert matcher.byte_offset == 2 and matcher.accept_token(ab)


def test_batched_accept_and_rollback_equal_the_single_calls():
    tokenizer, pieces = small_tokenizer("ab")
    constraint = glrmask.Constraint.from_regex("(ab)+", tokenizer)
    a, b = pieces.index(b"a"), pieces.index(b"b")
    batch = [glrmask.Matcher(constraint) for _ in range(3)]
    single = [glrmask.Matcher(constraint) for _ in range(3)]
    tokens = [a, b, a]
    assert glrmask.batch_accept_token(batch, tokens) == \
        [m.accept_token(t) for m, t in zip(single, tokens)] == [True, False, True]
    assert glrmask.batch_accept_token(batch, [b, a, b]) == [True, True, True]
    glrmask.batch_rollback(batch, [1, 0, 2])
    assert [m.byte_offset for m in batch] == [1, 1, 0]
    glrmask.batch_rollback(batch[:2])  # one token each
    assert [m.byte_offset for m in batch] == [0, 0, 0]
    with pytest.raises(glrmask.Error) as mismatch:
        glrmask.batch_accept_token(batch, [a])
    assert mismatch.value.code == "invalid argument"


def test_the_bitmask_helpers_have_the_fields_shapes():
    assert glrmask.get_bitmask_shape(4, 128256) == (4, 4008)
    assert glrmask.get_bitmask_shape(1, 32) == (1, 1) and glrmask.get_bitmask_shape(1, 33) == (1, 2)
    bitmask = glrmask.allocate_token_bitmask(2, 100)
    assert bitmask.dtype == np.int32 and bitmask.shape == (2, 4) and (bitmask == -1).all()
    bitmask[:] = 0
    glrmask.reset_token_bitmask(bitmask)
    assert (bitmask == -1).all()


def largest_gap_while(call):
    """Runs `call` on a second thread while this one notes the time every millisecond; returns
    the call's duration and the longest stretch inside it in which this thread could not run
    Python (the whole call when the call holds the GIL)."""
    import threading
    import time
    span = {}

    def worker():
        span["begin"] = time.monotonic()
        call()
        span["end"] = time.monotonic()

    thread = threading.Thread(target=worker)
    ticks = []
    thread.start()
    while thread.is_alive():
        ticks.append(time.monotonic())
        time.sleep(0.001)
    thread.join()
    inside = [span["begin"]] + [t for t in ticks if span["begin"] < t < span["end"]] + [span["end"]]
    return span["end"] - span["begin"], max(b - a for a, b in zip(inside, inside[1:]))


def test_compile_and_batch_fill_release_the_gil():
    try:
        tokenizer = glrmask.Tokenizer.load("llama3")
    except glrmask.Error as error:
        pytest.skip(f"the Llama-3 tokenizer is not in the cache: {error}")
    schema = (SOURCE / "tests" / "fixtures" / "api" / "person.schema.json").read_text()
    constraints = []
    duration, gap = largest_gap_while(
        lambda: constraints.append(glrmask.Constraint.from_json_schema(schema, tokenizer)))
    # A call that held the GIL would leave one gap as long as itself.
    assert duration > 0.05 and gap < 0.8 * duration, (duration, gap)
    lazy = glrmask.Constraint.from_json_schema(schema, tokenizer, engine="lazy")
    matchers = [glrmask.Matcher(lazy) for _ in range(32)]
    for i, matcher in enumerate(matchers):
        assert matcher.accept_string('{"name": "' + "x" * (i % 16))
    bitmask = glrmask.allocate_token_bitmask(len(matchers), tokenizer.vocab_size)
    duration, gap = largest_gap_while(lambda: glrmask.fill_next_token_bitmasks(matchers, bitmask))
    assert duration > 0.01 and gap < 0.8 * duration, (duration, gap)
