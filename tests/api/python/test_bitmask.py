"""The bitmask and logits arrays the Python module takes: every misuse gives a clear error or a
correct result, never a silently wrong mask (int64 words, wrong shapes, strided views, logits wider
than the vocabulary), and the batch fill with indices equals single fills."""

import numpy as np
import pytest

import glrmask

from extras import need

from test_glrmask import bits, small_tokenizer


def regex_matcher(pattern="a+b?", alphabet="ab"):
    tokenizer, pieces = small_tokenizer(alphabet)
    constraint = glrmask.Constraint.from_regex(pattern, tokenizer)
    return tokenizer, pieces, glrmask.Matcher(constraint)


def test_int64_and_other_dtypes_are_refused_everywhere():
    tokenizer, _, matcher = regex_matcher()
    wide = np.full((1, tokenizer.bitmask_words), -1)  # int64, what np.full gives
    assert wide.dtype == np.int64
    with pytest.raises(glrmask.Error, match="int32"):
        matcher.fill_next_token_bitmask(wide, 0)
    with pytest.raises(glrmask.Error, match="int32"):
        glrmask.fill_next_token_bitmasks([matcher], wide)
    logits = np.zeros((1, tokenizer.vocab_size), dtype=np.float32)
    with pytest.raises(glrmask.Error, match="int32"):
        glrmask.apply_token_bitmask_inplace(logits, wide)
    with pytest.raises(glrmask.Error, match="int32"):
        glrmask.apply_token_bitmask_inplace(logits, wide.astype(np.uint8))
    with pytest.raises(glrmask.Error, match="float"):
        glrmask.apply_token_bitmask_inplace(logits.astype(np.int32),
                                            glrmask.allocate_token_bitmask(1, tokenizer.vocab_size))


def test_shapes_and_strides_are_checked():
    tokenizer, _, matcher = regex_matcher()
    words = tokenizer.bitmask_words
    with pytest.raises(glrmask.Error, match="row"):
        matcher.fill_next_token_bitmask(np.zeros((1, words - 1), dtype=np.int32), 0)
    with pytest.raises(glrmask.Error, match="out of range"):
        matcher.fill_next_token_bitmask(np.zeros((2, words), dtype=np.int32), 2)
    strided = np.zeros((4, words), dtype=np.int32)[::2]
    with pytest.raises(glrmask.Error, match="contiguous"):
        matcher.fill_next_token_bitmask(strided, 0)
    with pytest.raises(glrmask.Error, match="dimensions"):
        matcher.fill_next_token_bitmask(np.zeros((1, 1, words), dtype=np.int32), 0)
    logits = np.zeros((2, tokenizer.vocab_size), dtype=np.float32)
    with pytest.raises(glrmask.Error, match="rows"):
        glrmask.apply_token_bitmask_inplace(logits, glrmask.allocate_token_bitmask(1, 32 * words))
    with pytest.raises(glrmask.Error, match="out of range"):
        glrmask.apply_token_bitmask_inplace(logits, glrmask.allocate_token_bitmask(2, 32 * words),
                                            indices=[5])


def test_logits_wider_than_the_vocabulary_are_masked_past_it():
    tokenizer, _, matcher = regex_matcher()
    padded = tokenizer.vocab_size + 70  # a model whose logits are padded past the tokenizer
    bitmask = glrmask.allocate_token_bitmask(1, padded)
    assert bitmask.shape == glrmask.get_bitmask_shape(1, padded)
    matcher.fill_next_token_bitmask(bitmask, 0)
    logits = np.zeros((1, padded), dtype=np.float32)
    glrmask.apply_token_bitmask_inplace(logits, bitmask)
    finite = set(np.flatnonzero(np.isfinite(logits[0])).tolist())
    assert finite == bits(bitmask[0], tokenizer.vocab_size)
    assert all(i < tokenizer.vocab_size for i in finite)
    # A bitmask narrower than the logits (allocated for the tokenizer, logits of the model): the
    # logits past it are masked too, not left as they were.
    narrow = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    matcher.fill_next_token_bitmask(narrow, 0)
    logits = np.zeros((1, padded), dtype=np.float32)
    glrmask.apply_token_bitmask_inplace(logits, narrow)
    assert set(np.flatnonzero(np.isfinite(logits[0])).tolist()) == finite
    # vocab_size= limits the columns that may stay finite.
    logits = np.zeros((1, padded), dtype=np.float32)
    glrmask.apply_token_bitmask_inplace(logits, bitmask, vocab_size=min(finite) + 1)
    assert set(np.flatnonzero(np.isfinite(logits[0])).tolist()) == {min(finite)}


def test_apply_masks_exactly_the_cleared_bits_in_every_float_type():
    rng = np.random.default_rng(7)
    vocab = 1000
    bitmask = rng.integers(-2**31, 2**31, size=(3, (vocab + 31) // 32), dtype=np.int64)
    bitmask = bitmask.astype(np.int32)
    bitmask[1, :] = 0
    bitmask[2, :] = -1
    expected = np.unpackbits(bitmask.view(np.uint8), axis=-1, bitorder="little")[:, :vocab] == 1
    for dtype in (np.float32, np.float16):
        logits = rng.standard_normal((3, vocab)).astype(dtype)
        glrmask.apply_token_bitmask_inplace(logits, bitmask)
        assert (np.isfinite(logits) == expected).all()
    # Only the rows `indices` names.
    logits = np.zeros((3, vocab), dtype=np.float32)
    glrmask.apply_token_bitmask_inplace(logits, bitmask, indices=[1])
    assert np.isfinite(logits[0]).all() and np.isfinite(logits[2]).all()
    assert not np.isfinite(logits[1]).any()
    # A one-dimensional row.
    row = np.zeros(vocab, dtype=np.float32)
    glrmask.apply_token_bitmask_inplace(row, bitmask[0])
    assert (np.isfinite(row) == expected[0]).all()


def test_fill_returns_whether_the_mask_restricts_anything():
    tokenizer, _, matcher = regex_matcher()
    bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    assert matcher.fill_next_token_bitmask(bitmask, 0) is True  # "b" may not come first


def test_batch_fill_with_indices_equals_single_fills():
    tokenizer, _, _ = regex_matcher()
    constraint = glrmask.Constraint.from_regex("a+b?", tokenizer)
    matchers = [glrmask.Matcher(constraint) for _ in range(3)]
    matchers[1].accept_string("a")
    matchers[2].accept_string("aab")
    single = glrmask.allocate_token_bitmask(5, tokenizer.vocab_size)
    for row, matcher in zip([4, 0, 2], matchers):
        matcher.fill_next_token_bitmask(single, row)
    batch = glrmask.allocate_token_bitmask(5, tokenizer.vocab_size)
    glrmask.fill_next_token_bitmasks(matchers, batch, indices=[4, 0, 2])
    assert (batch == single).all()
    # Rows not named stay as they were (all allowed).
    assert (batch[1] == -1).all() and (batch[3] == -1).all()
    with pytest.raises(glrmask.Error, match="indices"):
        glrmask.fill_next_token_bitmasks(matchers, batch, indices=[0, 1])


def test_after_the_end_the_row_is_empty_and_allow_only_keeps_sampling_defined():
    tokenizer, _, matcher = regex_matcher("a")
    assert matcher.accept_string("a")
    assert matcher.accept_token(tokenizer.stop_ids[0])
    assert matcher.is_terminated()
    bitmask = glrmask.allocate_token_bitmask(1, tokenizer.vocab_size)
    matcher.fill_next_token_bitmask(bitmask, 0)
    assert bits(bitmask[0], tokenizer.vocab_size) == set()
    glrmask.allow_only(bitmask, 0, matcher.stop_token_ids)
    assert bits(bitmask[0], tokenizer.vocab_size) == set(tokenizer.stop_ids)
    logits = np.zeros((1, tokenizer.vocab_size), dtype=np.float32)
    glrmask.apply_token_bitmask_inplace(logits, bitmask)
    assert np.isfinite(logits).any()


def test_torch_tensors_take_the_kernel_path():
    torch = need("torch")
    tokenizer, _, matcher = regex_matcher()
    padded = tokenizer.vocab_size + 40
    bitmask = glrmask.allocate_token_bitmask(2, padded, backend="torch")
    assert isinstance(bitmask, torch.Tensor) and bitmask.dtype == torch.int32
    assert (bitmask == -1).all()
    matcher.fill_next_token_bitmask(bitmask, 1)
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        logits = torch.zeros((2, padded), dtype=dtype)
        glrmask.apply_token_bitmask_inplace(logits, bitmask)
        finite = set(torch.nonzero(torch.isfinite(logits[1].float())).flatten().tolist())
        assert finite == bits(bitmask[1].numpy(), tokenizer.vocab_size)
        assert torch.isfinite(logits[0, :32 * bitmask.shape[1]].float()).all()
    with pytest.raises(glrmask.Error, match="int32"):
        matcher.fill_next_token_bitmask(torch.zeros((1, bitmask.shape[1]), dtype=torch.int64), 0)
    glrmask.reset_token_bitmask(bitmask)
    assert (bitmask == -1).all()
