"""Prints the wgmma inline-asm wrappers pasted into phases/phase_d/kernel.cu (inside
namespace attn_phase_d, between the GENERATED markers; the file holds this output verbatim).
An inline-asm operand list cannot be built by the preprocessor or a template, so each
(N, dtype) gets its own statement, written out here.

  python3 phases/phase_d/dev/gen_wgmma.py > /tmp/wg.inc
  python3 phases/phase_d/dev/gen_wgmma.py 256 --rs-f16=8,72 > /tmp/wg.inc
      # phase_e: also N = 256 (SS only), and fp16 RS-only wrappers at N = 8 and 72 (L_TENSOR's
      # P·ones and P·[V | ones])
  python3 phases/phase_d/dev/gen_wgmma.py 256 --rs-f16=8,72 --sst=64
      # and, at N = 64, P·V with P from shared memory too (`sst`: B MN-major, P_SMEM)
"""
import sys

def _listed(flag):
    return [int(n) for a in sys.argv[1:] if a.startswith(flag + "=") for n in a.split("=")[1].split(",")]


ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
RS_F16_ONLY = _listed("--rs-f16")
SST_N = _listed("--sst")  # N with an SS form whose B is MN-major (P·V with P in shared memory)
SS_N = list(range(64, 193, 16)) + [int(a) for a in ARGS]  # keys per tile (the N of Q.K^T)
RS_N = [64, 128]                  # head dims (the N of P.V)
TYPES = [("false", "f16"), ("true", "bf16")]


def regs(n, first=0):
    return ", ".join(f"%{first + i}" for i in range(n))


def acc_operands(n):
    lines, per = [], 8
    for i in range(0, n, per):
        lines.append("        " + ", ".join(f'"+f"(d[{j}])' for j in range(i, min(n, i + per))))
    return ",\n".join(lines)


def wrap(s, width=96):
    out, cur = [], ""
    for tok in s.split(" "):
        if len(cur) + len(tok) + 1 > width:
            out.append(cur)
            cur = tok
        else:
            cur = f"{cur} {tok}" if cur else tok
    out.append(cur)
    return "\n".join(f'        "{x} "' for x in out)


def ss_method(n, ty, name, trans_b, comment):
    """One SS wrapper (both operands in shared memory, A K-major); trans_b: B MN-major."""
    m = n // 2
    body = (f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{ty}.{ty} {{{regs(m)}}}, %{m}, %{m + 1}, "
            f"p, 1, 1, 0, {int(trans_b)};")
    return f"""{comment}
  static __device__ __forceinline__ void {name}(float (&d)[{m}], uint64_t a, uint64_t b, int accumulate) {{
    asm volatile(
        "{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{m + 2}, 0;\\n"
{wrap(body)}
        "\\n}}\\n"
        :
{acc_operands(m)}
        : "l"(a), "l"(b), "r"(accumulate));
  }}
"""


def ss(n, bf, ty):
    comment = f"  // D[64 x {n}] (+)= A[64 x 16] . B[{n} x 16]^T, both operands K-major in shared memory."
    return f"template <> struct Wgmma<{n}, {bf}> {{\n" + ss_method(n, ty, "ss", False, comment)


def sst(n, bf, ty):
    return ss_method(n, ty, "sst", True,
                     f"  // D[64 x {n}] (+)= A[64 x 16] . B[16 x {n}]: A K-major, B MN-major (imm-trans-b = 1), both\n"
                     "  // in shared memory.")


def rs(n, bf, ty):
    m = n // 2
    body = (f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{ty}.{ty} {{{regs(m)}}}, "
            f"{{%{m}, %{m + 1}, %{m + 2}, %{m + 3}}}, %{m + 4}, p, 1, 1, 1;")
    return f"""  // D[64 x {n}] (+)= A[64 x 16] (registers) . B[16 x {n}], B MN-major in shared memory
  // (imm-trans-b = 1: the tile is stored [k][n] with n contiguous).
  static __device__ __forceinline__ void rs(float (&d)[{m}], uint32_t a0, uint32_t a1, uint32_t a2,
                                            uint32_t a3, uint64_t b, int accumulate) {{
    asm volatile(
        "{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{m + 5}, 0;\\n"
{wrap(body)}
        "\\n}}\\n"
        :
{acc_operands(m)}
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b), "r"(accumulate));
  }}
"""


print("template <int N, bool BF16> struct Wgmma;  // specialised below for the supported N")
for n in SS_N:
    for bf, ty in TYPES:
        print(ss(n, bf, ty), end="")
        if n in RS_N:
            print(rs(n, bf, ty), end="")
        if n in SST_N:
            print(sst(n, bf, ty), end="")
        print("};")
for n in RS_F16_ONLY:
    print(f"template <> struct Wgmma<{n}, false> {{")
    print(rs(n, "false", "f16"), end="")
    print("};")
