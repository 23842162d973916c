"""Parses `cuobjdump -res-usage` and `cuobjdump -sass` output: per-kernel resources and a
histogram of SASS opcodes."""
import re
from collections import Counter

_RES_FN = re.compile(r"^\s*Function (\S+):\s*$")
_RES_KV = re.compile(r"([A-Z_]+(?:\[\d+\])?):(\d+)")
_SASS_FN = re.compile(r"^\s*Function : (\S+)\s*$")
# /*0450*/   @!P0 STL.128 [R1+0x10], R4 ;
_SASS_INSN = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")


def parse_res_usage(text):
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


def parse_sass(text):
    """{function: Counter(full opcode with modifiers)}"""
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
    return out


def base_opcode(op):
    return op.split(".", 1)[0]


def histogram(per_function, base=True):
    total = Counter()
    for ops in per_function.values():
        for op, n in ops.items():
            total[base_opcode(op) if base else op] += n
    return dict(sorted(total.items(), key=lambda kv: (-kv[1], kv[0])))


def has_opcode(per_function, wanted):
    """True when some instruction is `wanted` exactly, or `wanted` followed by modifiers
    (HMMA matches HMMA.16816.F32; LDSM.16.MT88 matches LDSM.16.MT88.4)."""
    for ops in per_function.values():
        for op in ops:
            if op == wanted or op.startswith(wanted + "."):
                return True
    return False


def functions_with(per_function, wanted):
    return sorted(f for f, ops in per_function.items()
                  if any(op == wanted or op.startswith(wanted + ".") for op in ops))
