"""Calls from two host threads at once, observations only (the sanity gate judges them:
ladder/gates/sanity.py).

Every other check calls the kernel from one host thread. ctypes releases the GIL around a
foreign call, so two threads of a user's program (two models served side by side, a data-parallel
loop with one thread per stream) can be inside attn_fwd together. A library whose host-side
state is not safe for that (a plan cache written without a lock, a parameter block filled and
then launched from, a lazily built table) hands one thread's call the other's plan, or faults.

Method: two problems on views of the same tensors (the shape's own and, where there are keys to
drop, fewer keys; else the other mask), each first called alone and waited for. Then two threads,
each with a non-blocking stream of its own, released together by a barrier, each calling its
problem ROUNDS times (fewer, at least 4, where their outputs would pass OUTPUT_BYTES) into outputs
of its own, as fast as the host allows. After both threads have joined and the device is
synchronised, each output and log-sum-exp must be bit-identical to its problem's call alone; an
exception in a thread is recorded as that thread's error.

Each thread builds its calls' arguments before the barrier (`prepared`), so that its loop runs
nothing between two foreign calls but the loop itself. Built inside the loop, as until the
twenty-seventh session, they held the GIL between calls, and where that took longer than a host
section inside the library the two threads took turns instead of overlapping: `host_race` (20 us
of host work between filling a shared struct and launching from it) was seen at three of the
sanity gate's shapes, not at its first, and a GPU test at that shape missed it too
(phases/phase_e/NOTES.md, twenty-seventh session)."""
import copy
import threading
import types

import torch

from ..queueing import held_bytes
from .inputs import poisoned_like, poisoned_lse, unwritten
from .kernel import KernelError, _error_name, error_line
from .sharing import call, mismatch

ROUNDS = 24  # calls per thread: enough for their host sections to interleave many times
OUTPUT_BYTES = 3 << 30  # outputs held at once (the largest timed sizes): fewer rounds, at least 4, past it


def _problems(q, k, v, causal):
    S_k = k.shape[2]
    if S_k > 1:
        return [("the shape", (q, k, v), causal),
                ("fewer keys", (q, k.narrow(2, 0, S_k // 2), v.narrow(2, 0, S_k // 2)), causal)]
    return [("the shape", (q, k, v), causal), ("the other mask", (q, k, v), not causal)]


def prepared(kernel, *args, **kwargs):
    """kernel(*args, **kwargs) ready to launch: a function of no arguments that makes the foreign
    call of attn_fwd with the arguments the Kernel's own call builds (recorded by running that
    call against a stand-in library) and raises as that call does when the library returns an
    error."""
    recorded = []
    stand_in = copy.copy(kernel)
    stand_in.lib = types.SimpleNamespace(attn_fwd=lambda *a: recorded.append(a) or 0)
    stand_in(*args, **kwargs)
    (arguments,) = recorded
    attn_fwd = kernel.lib.attn_fwd

    def launch():
        err = attn_fwd(*arguments)
        if err != 0:
            raise KernelError(f"attn_fwd returned CUDA error {err} ({_error_name(err)})")
    return launch


def threaded_calls(kernel, q, k, v, causal):
    """{rows: one per problem ({problem, elements, mismatches, lse_mismatches, unwritten, error})}."""
    problems = _problems(q, k, v, causal)
    alone = [call(kernel, *qkv, mask)[:2] for _, qkv, mask in problems]
    rounds = max(4, min(ROUNDS, OUTPUT_BYTES // held_bytes(alone)))
    outs = [[(poisoned_like(qkv[0]), poisoned_lse(qkv[0])) for _ in range(rounds)] for _, qkv, _ in problems]
    torch.cuda.synchronize()
    barrier = threading.Barrier(len(problems), timeout=60)
    errors = [None] * len(problems)

    def work(i):
        _, qkv, mask = problems[i]
        try:
            stream = torch.cuda.Stream()
            launches = [prepared(kernel, *qkv, o, lse, causal=mask, stream=stream) for o, lse in outs[i]]
            barrier.wait()
            for launch in launches:
                launch()
        except Exception as e:  # recorded: the gate fails it
            barrier.abort()  # a thread that fails before the barrier must not leave the other waiting
            errors[i] = error_line(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(problems))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    torch.cuda.synchronize()
    rows = []
    for (name, _, _), (o_alone, lse_alone), runs, err in zip(problems, alone, outs, errors):
        rows.append({"problem": name, "elements": o_alone.numel(), "error": err,
                     "mismatches": sum(mismatch(o, o_alone) for o, _ in runs),
                     "lse_mismatches": sum(mismatch(lse, lse_alone) for _, lse in runs),
                     "unwritten": sum(int(unwritten(o).sum()) for o, _ in runs)})
    return {"rows": rows}
