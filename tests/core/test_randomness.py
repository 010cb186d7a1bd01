"""Seeds, generators and child streams."""

import numpy as np
import pytest

from dpcore.core import randomness

# One valid call per public function of the module, the baseline tests/test_public_functions.py swaps bad values into.
VALID_CALLS = {
    "as_generator": dict(rng=0),
    "spawn": dict(rng=0, count=2),
    "child_generator": dict(seed=0),
}


def test_int_seed_is_reproducible_and_generator_is_passed_through():
    a = randomness.as_generator(5).random(4)
    b = randomness.as_generator(5).random(4)
    np.testing.assert_array_equal(a, b)
    generator = np.random.default_rng(1)
    assert randomness.as_generator(generator) is generator
    assert isinstance(randomness.as_generator(None), np.random.Generator)


def test_spawned_children_are_distinct_and_reproducible():
    first = [child.random(3) for child in randomness.spawn(9, 3)]
    again = [child.random(3) for child in randomness.spawn(9, 3)]
    for x, y in zip(first, again):
        np.testing.assert_array_equal(x, y)
    assert not np.allclose(first[0], first[1])
    # children are uncorrelated with each other (a seed never correlates two mechanisms' noise)
    left, right = (child.standard_normal(200000) for child in randomness.spawn(1, 2))
    assert abs(np.corrcoef(left, right)[0, 1]) < 0.01


def test_child_generator_depends_on_seed_and_key_only():
    same = randomness.child_generator(3, "data", 100).random(3)
    again = randomness.child_generator(3, "data", 100).random(3)
    other_key = randomness.child_generator(3, "data", 1000).random(3)
    other_seed = randomness.child_generator(4, "data", 100).random(3)
    np.testing.assert_array_equal(same, again)
    assert not np.allclose(same, other_key)
    assert not np.allclose(same, other_seed)


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (1.5, TypeError), ("7", TypeError),
                                        (np.random.RandomState(0), TypeError)])
def test_bad_seeds_are_rejected_with_a_message(bad, error):
    with pytest.raises(error, match="rng must be None, a non-negative integer seed or a numpy.random.Generator"):
        randomness.as_generator(bad)
