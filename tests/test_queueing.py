"""The queued check's order: every ring smaller than the queue mixes problems."""
import pytest

from ladder.queueing import RING_SLOTS, queue, ring_sees_a_mix, rounds_for


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("rounds", [3, 4, 7, 22, 44])
def test_every_ring_smaller_than_the_queue_mixes_problems(n, reverse, rounds):
    q = queue(n, reverse, rounds)
    assert sorted(q) == sorted(list(range(n)) * rounds)
    assert [s for s in range(1, len(q)) if not ring_sees_a_mix(q, s)] == []


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_small_problems_fill_the_ring_and_large_ones_keep_to_the_budget(n):
    rounds = rounds_for(n, round_bytes=10_000, budget_bytes=1 << 31)
    assert n * rounds >= RING_SLOTS and len(queue(n, False, rounds)) == n * rounds
    assert ring_sees_a_mix(queue(n, False, rounds), 128)
    assert rounds_for(n, round_bytes=1 << 29, budget_bytes=1 << 31) == 4
    assert rounds_for(n, round_bytes=1 << 31, budget_bytes=1 << 31) == 3  # never fewer than three


def test_repeating_the_problems_would_let_a_ring_of_their_count_pass():
    # what the order is built against: the plain repeat hides a ring of n (and 2n) slots
    assert not ring_sees_a_mix(list(range(6)) * 3, 6)
    assert not ring_sees_a_mix(list(range(6)) * 3, 12)
    assert ring_sees_a_mix(list(range(6)), 5)
