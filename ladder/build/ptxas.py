"""Parses `nvcc -Xptxas -v` output into per-function resource figures."""
import re

_COMPILING = re.compile(r"Compiling entry function '([^']+)' for '([^']+)'")
_PROPS = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_FIELDS = {
    "barriers": re.compile(r"used (\d+) barriers"),
    "smem_bytes": re.compile(r"(\d+) bytes smem"),
    "cmem0_bytes": re.compile(r"(\d+) bytes cmem\[0\]"),
}


def parse(text):
    """{(function, arch): {registers, stack_bytes, spill_store_bytes, spill_load_bytes, ...}}.
    Only entry functions (kernels) are reported; device functions' frames are folded into them
    by ptxas already."""
    out, current, props_for = {}, None, None
    for line in text.splitlines():
        m = _COMPILING.search(line)
        if m:
            current = (m.group(1), m.group(2))
            out[current] = {"registers": None, "stack_bytes": 0, "spill_store_bytes": 0,
                            "spill_load_bytes": 0, "barriers": 0, "smem_bytes": 0}
            continue
        m = _PROPS.search(line)
        if m:
            props_for = m.group(1)
            continue
        m = _FRAME.search(line)
        if m and current and props_for == current[0]:
            out[current].update(stack_bytes=int(m.group(1)), spill_store_bytes=int(m.group(2)),
                                spill_load_bytes=int(m.group(3)))
            continue
        m = _USED.search(line)
        if m and current:
            out[current]["registers"] = int(m.group(1))
            for key, rx in _FIELDS.items():
                f = rx.search(line)
                if f:
                    out[current][key] = int(f.group(1))
    return out


def errors(text):
    """The compiler's error lines, for a failing build's one-line reason."""
    return [l.strip() for l in text.splitlines() if re.search(r"\berror\b", l, re.I)]
