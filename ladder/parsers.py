"""Parsers for what the CUDA tools print: `nvcc -Xptxas -v`, `cuobjdump -res-usage`,
`cuobjdump -sass`, `ncu --csv --page raw` and compute-sanitizer. Pure functions of the text,
tested on captured fixtures, and used by the gates' derive functions, so check-evidence can
re-read the raw tool output stored in evidence."""
import csv
import io
import re
from collections import Counter

_COMPILING = re.compile(r"Compiling entry function '([^']+)' for '([^']+)'")
_PROPS = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_FIELDS = {
    "barriers": re.compile(r"used (\d+) barriers"),
    "smem_bytes": re.compile(r"(\d+) bytes smem"),
    "cmem0_bytes": re.compile(r"(\d+) bytes cmem\[0\]"),
}
# ptxas diagnostics with a code, "ptxas info    : (C7514) Potential Performance Loss: ..." or
# "ptxas warning : (C7510) ...": wgmma serialisation is the C7510-C7515 family, printed at info
# level by nvcc 13.0 (seen on phase_d's serialised-wgmma control).
_ADVISORY = re.compile(r"^\s*ptxas\s+(?:info|warning)\s*:\s*\((C\d{4})\)")


def ptxas(text):
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


def ptxas_warnings(text):
    """[(code, line)] for every ptxas diagnostic (info or warning) that carries a (Cnnnn) code."""
    return [(m.group(1), line.strip()) for line in text.splitlines() if (m := _ADVISORY.search(line))]


def compiler_errors(text):
    """The compiler's error lines, for a failing build's one-line reason."""
    return [l.strip() for l in text.splitlines() if re.search(r"\berror\b", l, re.I)]


_RES_FN = re.compile(r"^\s*Function (\S+):\s*$")
_RES_KV = re.compile(r"([A-Z_]+(?:\[\d+\])?):(\d+)")
_SASS_FN = re.compile(r"^\s*Function : (\S+)\s*$")
# /*0450*/   @!P0 STL.128 [R1+0x10], R4 ;
_SASS_INSN = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")


def res_usage(text):
    """{function: {"REG": .., "STACK": .., "SHARED": .., "LOCAL": .., ...}}"""
    out, current = {}, None
    for line in text.splitlines():
        m = _RES_FN.match(line)
        if m:
            current = m.group(1)
            continue
        if current and "REG:" in line:
            out[current] = {k: int(v) for k, v in _RES_KV.findall(line)}
            current = None
    return out


def sass_opcodes(text):
    """{function: {full opcode with modifiers: count}}"""
    out, current = {}, None
    for line in text.splitlines():
        m = _SASS_FN.match(line)
        if m:
            current = m.group(1)
            out[current] = Counter()
            continue
        m = _SASS_INSN.match(line)
        if m and current is not None:
            out[current][m.group(1)] += 1
    return {f: dict(c) for f, c in out.items()}


def base_opcode(op):
    return op.split(".", 1)[0]


def histogram(per_function, base=True):
    total = Counter()
    for ops in per_function.values():
        for op, n in ops.items():
            total[base_opcode(op) if base else op] += n
    return dict(sorted(total.items(), key=lambda kv: (-kv[1], kv[0])))


def _matches(op, wanted):
    return op == wanted or op.startswith(wanted + ".")


def has_opcode(per_function, wanted):
    """True when some instruction is `wanted` exactly, or `wanted` followed by modifiers
    (HMMA matches HMMA.16816.F32; LDSM.16.MT88 matches LDSM.16.MT88.4)."""
    return any(_matches(op, wanted) for ops in per_function.values() for op in ops)


def functions_with(per_function, wanted):
    return sorted(f for f, ops in per_function.items() if any(_matches(op, wanted) for op in ops))


def ncu_csv(text, metrics):
    """ncu --csv --page raw: a header row of metric names, a units row, one row per kernel.
    Returns {key: value} for the first profiled kernel, keys from `metrics` {key: metric name},
    or None when the text holds no table."""
    rows = list(csv.reader(io.StringIO(text[text.find('"ID"'):] if '"ID"' in text else text)))
    if len(rows) < 3:
        return None
    header, values = rows[0], rows[2]
    out = {}
    for key, metric in metrics.items():
        if metric in header:
            cell = values[header.index(metric)].replace(",", "")
            try:
                out[key] = float(cell)
            except ValueError:
                out[key] = None
    return out


_ERRORS = re.compile(r"ERROR SUMMARY: (\d+) error")
_HAZARDS = re.compile(r"RACECHECK SUMMARY: (\d+) hazard")


def sanitizer(text, returncode, timed_out):
    """(clean, one-line findings) from a compute-sanitizer run's output."""
    errors = sum(int(n) for n in _ERRORS.findall(text))
    hazards = sum(int(n) for n in _HAZARDS.findall(text))
    if timed_out:
        return False, "timed out"
    summary_seen = bool(_ERRORS.search(text) or _HAZARDS.search(text))
    if errors or hazards or returncode != 0 or not summary_seen:
        lines = text.strip().splitlines()
        first = next((l.strip() for l in lines
                      if l.startswith("=========") and ("Invalid" in l or "hazard" in l.lower() or "Error" in l)),
                     " | ".join(l.strip() for l in lines[-2:]))
        return False, f"{errors} error(s), {hazards} hazard(s), exit {returncode}: {first}"
    return True, "clean"
