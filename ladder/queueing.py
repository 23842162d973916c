"""The order in which the sanity gate's queued check (ladder/gpu/queued.py) enqueues its calls,
and which staging rings a queue of it exercised. Pure, so that tests/test_queueing.py can check
it without a GPU.

A library that stages per-call data into a ring of slots, reused in turn, hands a call the data
of whichever later call last wrote its slot when the GPU gets to it. That is only seen if that
later call posed another problem: with the problems simply repeated, every ring whose size is a
multiple of their count passes (each slot's last writer is the same problem again).

The queue begins with the problems in order, again, then in reverse rotated by one: for 3 to 6
problems, every ring of fewer slots than those 3n calls has a slot whose last writer posed
another problem. It goes on in rounds of the n problems each shuffled by a seeded generator, so
that it has no period: a queue of which only the first A calls were enqueued before the GPU
started on them (the host can be held back, e.g. by the driver's limit on launches in flight)
still mixes in nearly every ring of fewer than A slots. rings_mixed says exactly how many."""
import math
import random

RING_SLOTS = 130   # calls wanted in flight: every ring of up to 128 slots (a power of two) mixes
SHORT_ROUNDS = 3   # the short order: each problem this many times, and every ring of fewer slots mixes


def held_bytes(outputs):
    """Bytes of one round's outputs, (o, lse) pairs of tensors, all held until the GPU catches up."""
    return sum(o.numel() * o.element_size() + lse.numel() * lse.element_size() for o, lse in outputs)


def rounds_for(n, round_bytes, budget_bytes):
    """Times each of n problems is enqueued: enough for RING_SLOTS calls, at least SHORT_ROUNDS,
    and fewer where one round's outputs (round_bytes, every call held until the GPU catches up)
    would take the queue past budget_bytes."""
    return max(SHORT_ROUNDS, min(math.ceil(RING_SLOTS / n), budget_bytes // max(round_bytes, 1)))


def queue(n, reverse=False, rounds=3):
    """Indices of n problems, each `rounds` times, in the order they are enqueued."""
    order = list(range(n))[::-1] if reverse else list(range(n))
    back = order[::-1]
    q = order + order + back[1:] + back[:1]
    rng = random.Random(1000 * n + int(reverse))
    for _ in range(rounds - SHORT_ROUNDS):
        r = list(order)
        rng.shuffle(r)
        q += r
    return q


def ring_sees_a_mix(q, slots):
    """Whether a ring of `slots` slots, written at each enqueue and read when the GPU runs the call
    after every call is enqueued, gives some call the data of another problem."""
    last = {}
    for i, problem in enumerate(q):
        last[i % slots] = problem
    return any(last[i % slots] != problem for i, problem in enumerate(q))


def rings_mixed(q, ahead):
    """The smallest ring size (in slots) that the first `ahead` calls of q, all enqueued before the
    GPU ran any, would not see mix: every smaller ring does."""
    prefix = q[:ahead]
    return next((s for s in range(1, ahead) if not ring_sees_a_mix(prefix, s)), ahead)
