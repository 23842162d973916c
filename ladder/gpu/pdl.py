"""Child side of the programmatic-dependent-launch check (ladder/gpu/producer.cu). A kernel
launched with programmatic stream serialisation may start while the kernel before it on the
stream still runs; only griddepcontrol.wait orders its reads after that kernel's writes. The
check: the call's inputs hold other values, the producer (which lets the next kernel start at
once) writes the right ones after a spin, and the call is enqueued right behind it. A kernel
that reads its inputs before it waits computes on the other values. Kernels launched without
the attribute are ordered as usual and pass."""
import ctypes

import torch

SPIN_NS = 2_000_000   # 2 ms: far longer than the dependent kernel takes to start
BLOCKS = 16           # producer CTAs; the rest of the GPU is free for the dependent kernel


def _dense_bytes(t):
    """Bytes from t's first element to its last: t must be dense (any dimension order)."""
    span = 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))
    if span != t.numel() or any(s < 0 for s in t.stride()):
        raise ValueError(f"the PDL check needs dense tensors, got shape {tuple(t.shape)} strides {t.stride()}")
    return span * t.element_size()


class Producer:
    def __init__(self, lib_path):
        self.lib = ctypes.CDLL(str(lib_path))
        self.lib.producer_launch.restype = ctypes.c_int
        self.lib.producer_launch.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64,
                                             ctypes.c_int, ctypes.c_void_p]

    def write_behind(self, values, targets):
        """Enqueues, on the current stream, the producer writing values[i] over targets[i] (same
        shape and strides) after its spin."""
        assert len(values) == len(targets) == 3
        n = [_dense_bytes(t) for t in targets]
        if [_dense_bytes(v) for v in values] != n or any(v.stride() != t.stride() for v, t in zip(values, targets)):
            raise ValueError("the producer's sources must have their targets' layout")
        src = (ctypes.c_void_p * 3)(*[v.data_ptr() for v in values])
        dst = (ctypes.c_void_p * 3)(*[t.data_ptr() for t in targets])
        nbytes = (ctypes.c_uint64 * 3)(*n)
        err = self.lib.producer_launch(src, dst, nbytes, SPIN_NS, BLOCKS, torch.cuda.current_stream().cuda_stream)
        if err:
            raise RuntimeError(f"the PDL producer failed to launch (cudaError {err})")


def launch_behind_producer(producer, inputs, values, launch):
    """inputs: the call's q, k, v, holding values other than `values`; the producer writes
    `values` over them, and launch() is enqueued right behind it. launch() must enqueue the call
    and nothing before it (its output allocated and poisoned beforehand): a torch op between the
    two would be the kernel the call depends on, and that one never lets it start early.
    Returns when the device is idle; inputs then hold `values`."""
    staged = [t.clone() for t in inputs]  # clone keeps a dense tensor's strides
    for s, x in zip(staged, values):
        s.copy_(x)
    torch.cuda.synchronize()
    producer.write_behind(staged, inputs)
    launch()
    torch.cuda.synchronize()
