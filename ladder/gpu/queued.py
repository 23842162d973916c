"""Calls of different problems queued back to back on one stream while the GPU is busy,
observations only (the sanity gate judges them: ladder/gates/sanity.py).

Every other check waits for a call to finish before it makes the next, so there the host never
runs ahead of the GPU. In a model it does: the next layer's call, with other sizes, another mask
or another scale, is enqueued while this call's work still waits behind earlier kernels. A
library that stages per-call data in host memory for the GPU to read later (a pinned parameter
block or a tile schedule copied asynchronously, then rewritten by the next call), or that keeps
per-call state between enqueue and execution, computes an earlier call with a later call's data.

Method: the shape's own problem and a few others posed on views of the same tensors (fewer keys,
fewer queries, fewer heads, the other mask, another scale), each first called alone and waited
for; then a spin on the caller's stream, and all of them enqueued behind it, each call into an
output of its own, in an order (ladder/queueing.py) in which a library that stages into a ring
of slots reused in turn mixes problems unless its ring holds every call in flight, and again in
another such order. Each problem goes enough times for 130 calls (a ring of 128 slots mixes), or
at least three times where 130 calls' outputs would pass QUEUE_BYTES (the largest timed sizes:
every output is held until the GPU catches up). Each output and log-sum-exp must be
bit-identical to its call alone (the repeat check holds the kernel to determinism).
Recorded per order: how many calls had been enqueued when the spin was first seen over (the
event is queried after each enqueue), and from that the smallest ring those calls would not
have mixed (queueing.rings_mixed). The host can fall behind the spin without any fault of the
kernel's: a stand-in of about ten launches per call got only 51 of 132 calls enqueued in a spin
five times as long as they needed (twenty-sixth session), most likely because the driver holds
back a host with that many launches in flight (not measured apart). The gate asks that at least the first
3n calls (the short order, n problems) ran ahead, as every one of them had to until now.
Until the twenty-fifth session each problem went once per order and a ring of six slots passed;
until the twenty-sixth, three times, and a ring of 18 passed."""
import torch

from .. import queueing
from .inputs import poisoned_like, poisoned_lse, unwritten
from .sharing import OTHER_SCALE, SPIN_CYCLES, call, mismatch

QUEUE_BYTES = 3 << 30  # outputs held by one order's queue; five phases' sanity share a GPU in make evidence


def _problems(q, k, v, causal):
    """(name, (q, k, v) views, causal, scale) for the shape and each other problem it allows."""
    B, H, S_q, D = q.shape
    S_k = k.shape[2]
    out = [("the shape", (q, k, v), causal, None)]
    if S_k > 1:
        out.append(("fewer keys", (q, k.narrow(2, 0, S_k // 2), v.narrow(2, 0, S_k // 2)), causal, None))
    if S_q > 1:
        out.append(("fewer queries", (q.narrow(2, 0, S_q // 2), k, v), causal, None))
    if H > 1:
        out.append(("fewer heads", tuple(t.narrow(1, 0, H // 2) for t in (q, k, v)), causal, None))
    out += [("the other mask", (q, k, v), not causal, None),
            ("another scale", (q, k, v), causal, OTHER_SCALE * D ** -0.5)]
    return out


def queued_calls(kernel, q, k, v, causal):
    """{rows: one per problem, summed over both orders ({problem, elements, mismatches,
    lse_mismatches, unwritten}), orders: per order {calls, ahead: calls enqueued while the spin
    still ran, rings_mixed: the smallest staging ring those calls would not have mixed}}."""
    problems = _problems(q, k, v, causal)
    alone = []
    for _, qkv, mask, scale in problems:
        o, lse, _ = call(kernel, *qkv, mask, scale=scale)
        alone.append((o, lse))
    rows = [{"problem": name, "elements": alone[i][0].numel(), "mismatches": 0, "lse_mismatches": 0, "unwritten": 0}
            for i, (name, *_) in enumerate(problems)]
    rounds = queueing.rounds_for(len(problems), queueing.held_bytes(alone), QUEUE_BYTES)
    orders = []
    for reverse in (False, True):
        queue = queueing.queue(len(problems), reverse, rounds)
        outs = [(poisoned_like(problems[i][1][0]), poisoned_lse(problems[i][1][0])) for i in queue]
        spun = torch.cuda.Event()
        # The caller's stream: every call below waits behind it. ~20 ms per 32 calls, so that the
        # spin outlasts the host's enqueues (tens of us each) with room for a busy host.
        torch.cuda._sleep(SPIN_CYCLES * -(-len(queue) // 32))
        spun.record()
        ahead = len(queue)
        for j, (i, out) in enumerate(zip(queue, outs)):
            _, qkv, mask, scale = problems[i]
            kernel(*qkv, *out, scale=scale, causal=mask)
            if ahead == len(queue) and spun.query():
                ahead = j  # the spin was over before this call was enqueued (it may have run already)
        torch.cuda.synchronize()
        orders.append({"calls": len(queue), "ahead": ahead, "rings_mixed": queueing.rings_mixed(queue, ahead)})
        for i, (o, lse) in zip(queue, outs):
            rows[i]["mismatches"] += mismatch(o, alone[i][0])
            rows[i]["lse_mismatches"] += mismatch(lse, alone[i][1])
            rows[i]["unwritten"] += int(unwritten(o).sum())
    return {"rows": rows, "orders": orders}
