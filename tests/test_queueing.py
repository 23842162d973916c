"""The queued check's order: every ring smaller than the queue mixes problems."""
import pytest

from ladder.queueing import queue, ring_sees_a_mix


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("reverse", [False, True])
def test_every_ring_smaller_than_the_queue_mixes_problems(n, reverse):
    q = queue(n, reverse)
    assert sorted(q) == sorted(list(range(n)) * 3)
    assert [s for s in range(1, len(q)) if not ring_sees_a_mix(q, s)] == []


def test_repeating_the_problems_would_let_a_ring_of_their_count_pass():
    # what the order is built against: the plain repeat hides a ring of n (and 2n) slots
    assert not ring_sees_a_mix(list(range(6)) * 3, 6)
    assert not ring_sees_a_mix(list(range(6)) * 3, 12)
    assert ring_sees_a_mix(list(range(6)), 5)
