"""The words gate.yaml, the gates and the evidence share: dtypes, head dims, tensor layouts, and
how a shape is written in a reason. Its own module so that the launch, sanity and correctness
gates, which need only these, do not hash the spec's schema: a new performance-target kind in
ladder/spec.py then stales the evidence that reads targets, not every gate of every phase."""

DTYPES = ("fp16", "bf16")
HEAD_DIMS = (64, 128)
LAYOUTS = ("contiguous", "bshd", "padded")


def shape_label(s):
    """Short human form of a shape, for reasons and logs."""
    label = f"B{s['B']} H{s['H']} S_q{s['S_q']} S_k{s['S_k']} D{s['D']}"
    if "dtype" in s:
        label += f" {s['dtype']}" + (" causal" if s["causal"] else "")
    return label
