"""The order in which the sanity gate's queued check (ladder/gpu/queued.py) enqueues its calls.
Pure, so that tests/test_queueing.py can check it without a GPU.

A library that stages per-call data into a ring of slots, reused in turn, hands a call the data
of whichever later call last wrote its slot when the GPU gets to it. That is only seen if that
later call posed another problem: with the problems simply repeated, every ring whose size is a
multiple of their count passes (each slot's last writer is the same problem again). The queue is
the problems in order, rounds - 1 times, then in reverse rotated by one; for 3 to 6 problems and
any number of rounds, every ring of fewer slots than calls in the queue has a slot whose last
writer posed another problem (tests/test_queueing.py checks it ring by ring)."""
import math

RING_SLOTS = 130   # calls wanted in flight: every ring of up to 129 slots (128, a power of two, included) mixes


def rounds_for(n, round_bytes, budget_bytes):
    """Times each of n problems is enqueued: enough for RING_SLOTS calls, at least three, and
    fewer where one round's outputs (round_bytes, every call held until the GPU catches up)
    would take the queue past budget_bytes."""
    return max(3, min(math.ceil(RING_SLOTS / n), budget_bytes // max(round_bytes, 1)))


def queue(n, reverse=False, rounds=3):
    """Indices of n problems, each `rounds` times, in the order they are enqueued."""
    order = list(range(n))[::-1] if reverse else list(range(n))
    back = order[::-1]
    return order * (rounds - 1) + back[1:] + back[:1]


def ring_sees_a_mix(q, slots):
    """Whether a ring of `slots` slots, written at each enqueue and read when the GPU runs the call
    after every call is enqueued, gives some call the data of another problem."""
    last = {}
    for i, problem in enumerate(q):
        last[i % slots] = problem
    return any(last[i % slots] != problem for i, problem in enumerate(q))
