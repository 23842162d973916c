"""Ninth session, SK_TAIL: do cut items fold to the same bits whichever piece finishes first?
Calls a library many times on one input set per shape and counts calls whose output or LSE
differs from the first call's in any bit; also checks the output against SDPA (max abs error,
SDPA's own error as the yardstick) and against the build without the change (argument: d128,
the default, for SK_TAIL; d64 for the persistent d=64 kernel)."""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import check  # noqa: E402  (dev/check.py: Lib, make, reference)

SHAPES = {  # shape set -> (shapes, the build to compare with)
    "d128": ([(4, 16, 4096, 4096, 128), (3, 47, 256, 2100, 128), (1, 70, 130, 2000, 128), (2, 67, 300, 3001, 128)],
             "e_sk0"),
    # (the persistent d=64 kernel of 91d2e19, against the build without it: needs that kernel)
    "d64": ([(8, 16, 2048, 2048, 64), (3, 47, 300, 2100, 64), (1, 70, 200, 2000, 64), (2, 70, 200, 600, 64)], "e_pd0"),
}


def main(which="d128", calls=30):
    shapes, base_name = SHAPES[which]
    lib, base = check.Lib("e"), check.Lib(base_name)
    for shape in shapes:
        for dtype in (torch.float16, torch.bfloat16):
            B, H, Sq, Sk, D = shape
            q, k, v, o, _ = check.make(shape, dtype, "contiguous", gen=torch.Generator("cuda").manual_seed(1))
            lse = torch.empty(B, H, Sq, device="cuda", dtype=torch.float32)
            assert lib(q, k, v, o, lse) == 0
            torch.cuda.synchronize()
            o0, l0 = o.clone(), lse.clone()
            diff = 0
            for _ in range(calls):
                o.fill_(float("nan"))
                assert lib(q, k, v, o, lse) == 0
                diff += int(not (torch.equal(o.view(torch.int16), o0.view(torch.int16)) and torch.equal(lse, l0)))
            ob = torch.full_like(o, float("nan"))
            assert base(q, k, v, ob) == 0
            ref = check.reference(q, k, v, False, D ** -0.5)[0]
            sd = check.sdpa(q, k, v, False, D ** -0.5).float()
            err = (o0.float() - ref).abs().max().item()
            err_sd = (sd - ref).abs().max().item()
            err_b = (ob.float() - ref).abs().max().item()
            print(f"{shape} {str(dtype)[6:]}: repeats differing {diff}/{calls}; max err {err:.3e} "
                  f"({base_name} {err_b:.3e}, sdpa {err_sd:.3e}); nan {int(o0.isnan().sum())}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:2])
