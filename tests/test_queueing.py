"""The queued check's order: every ring smaller than the queue mixes problems."""
import pytest

from ladder.queueing import RING_SLOTS, queue, ring_sees_a_mix, rings_mixed, rounds_for


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("reverse", [False, True])
def test_every_ring_smaller_than_the_short_queue_mixes_problems(n, reverse):
    q = queue(n, reverse)
    assert sorted(q) == sorted(list(range(n)) * 3)
    assert [s for s in range(1, len(q)) if not ring_sees_a_mix(q, s)] == []


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("rounds", [4, 7, 22, 44])
def test_a_longer_queue_poses_each_problem_equally_often(n, rounds):
    assert sorted(queue(n, True, rounds)) == sorted(list(range(n)) * rounds)


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


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("reverse", [False, True])
def test_a_queue_cut_short_still_mixes_nearly_every_smaller_ring(n, reverse):
    # the host may be held back after A calls (the driver's limit on launches in flight): the
    # first 3n calls are the short order, and the shuffled rounds after them have no period
    q = queue(n, reverse, rounds_for(n, 1, 1 << 31))
    assert q[:3 * n] == queue(n, reverse, 3)
    for ahead in range(3 * n, len(q) + 1):
        assert rings_mixed(q, ahead) >= max(3 * n, 0.65 * ahead), ahead


def test_rings_mixed_names_the_first_ring_that_does_not_mix():
    assert rings_mixed([0, 1, 2] * 3, 9) == 3
    assert rings_mixed(queue(6), 18) == 18
    assert rings_mixed(queue(6), 1) == 1
