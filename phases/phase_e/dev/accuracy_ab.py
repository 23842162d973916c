"""phase_e dev: where phase_e's d=64 fp16 error comes from (fifteenth session). At trial seeds
other than the records' 0, phase_e's correctness gate failed on one fp16 element at a time, 1.03 to
1.4x the tolerance (2x SDPA's max error), where phase_d passed. This times nothing: it builds
phase_e as shipped ("e"), with the row max exact but the row sums still on the tensor cores
("e_lt"), with neither ("e_lt0": fp32 row sums, phase_d's softmax), and phase_d ("d"), and compares
each one's fp16 output with a float64 reference and SDPA's own error over many seeds.

Method: per case and seed, inputs from the ladder's own distributions (ladder/gpu/inputs.py), one
call per library, error against the float64 answer. Reported per library and case: the fraction
of seeds whose max error exceeds 2x SDPA's (the gate's rule), the median and worst of that ratio,
and the mean relative gain (sum((out - ref) * ref) / sum(ref^2)) in fp16 unit roundoff (2^-11).

    python3 phases/phase_e/dev/accuracy_ab.py --out $OUT [--seeds 24] [--build] [--libs e,e_rt0,d]
"""
import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2]))
import check  # noqa: E402  (build, Lib, reference, sdpa)

LIBS = ["e", "e_lt", "e_lt0", "d"]
# (B, H, S_q, S_k, D), value distribution: the cases the seed sweep failed on, and their kind;
# then (sixteenth session) rows of at most 512 keys, which the short-row kernel takes.
CASES = [
    ((1, 3, 88, 986, 64), {"name": "all_negative", "strength": 150.0}),
    ((1, 1, 119, 840, 64), {"name": "all_negative", "strength": 150.0}),
    ((1, 2, 1024, 5000, 64), {"name": "normal", "std": 1.0}),
    ((2, 4, 512, 2048, 64), {"name": "normal", "std": 1.0}),
    ((2, 4, 512, 2048, 64), {"name": "v_offset", "offset": 100.0}),
    ((2, 8, 512, 512, 64), {"name": "normal", "std": 1.0}),
    ((1, 8, 333, 333, 64), {"name": "all_negative", "strength": 150.0}),
    ((2, 8, 512, 512, 64), {"name": "large_logits", "std": 7.0}),
    # Causal rows of up to SHORT_CAUSAL_MAX_KEYS (2048) keys: the short-row kernel too.
    ((1, 1, 119, 840, 64), {"name": "all_negative", "strength": 150.0}, True),
    ((2, 4, 1024, 1024, 64), {"name": "normal", "std": 1.0}, True),
    ((1, 2, 2048, 2048, 64), {"name": "normal", "std": 1.0}, True),
    ((1, 2, 2048, 2048, 64), {"name": "sink", "strength": 12.0}, True),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/accuracy_ab")
    ap.add_argument("--seeds", type=int, default=24)
    ap.add_argument("--build", action="store_true")
    ap.add_argument("--libs", default=",".join(LIBS), help="check.py LIBS names (comma-separated)")
    a = ap.parse_args()
    names = a.libs.split(",")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.build and not check.build(out, only=names):
        sys.exit(1)
    import torch
    from ladder.gpu.inputs import values
    libs = {n: check.Lib(n) for n in names}
    u = 2.0 ** -11
    rows = []
    for (B, H, Sq, Sk, D), dist, *flag in CASES:
        causal = bool(flag and flag[0])
        scale = D ** -0.5
        stats = {n: {"ratios": [], "gains": []} for n in names}
        sd_gain = []
        for seed in range(a.seeds):
            shape = {"B": B, "H": H, "S_q": Sq, "S_k": Sk, "D": D}
            q32, k32, v32 = values(shape, dist, scale, 1000 + seed)
            q, k, v = (x.half() for x in (q32, k32, v32))
            ref, _ = check.reference(q.float(), k.float(), v.float(), causal, scale)
            sd = check.sdpa(q, k, v, causal, scale).double()
            sd_err = (sd - ref).abs().max().item()
            rr = (ref * ref).sum().item()
            sd_gain.append(((sd - ref) * ref).sum().item() / rr / u)
            for n, lib in libs.items():
                o = torch.full_like(q, float("nan"))
                rc = lib(q, k, v, o, causal=causal, scale=scale)
                torch.cuda.synchronize()
                assert rc == 0, (n, rc)
                od = o.double()
                stats[n]["ratios"].append((od - ref).abs().max().item() / sd_err)
                stats[n]["gains"].append(((od - ref) * ref).sum().item() / rr / u)
        for n in names:
            r = sorted(stats[n]["ratios"])
            g = stats[n]["gains"]
            row = {"case": [B, H, Sq, Sk, D], "causal": causal, "values": dist["name"], "lib": n, "seeds": a.seeds,
                   "over_2x": sum(x > 2.0 for x in r) / len(r), "median_ratio": r[len(r) // 2],
                   "worst_ratio": r[-1], "mean_gain_u": sum(g) / len(g),
                   "sdpa_mean_gain_u": sum(sd_gain) / len(sd_gain)}
            rows.append(row)
            print(f"{str((B, H, Sq, Sk, D)):24s}{'c' if causal else ' '} {dist['name']:12s} {n:6s} over2x {row['over_2x']:.2f} "
                  f"median {row['median_ratio']:.2f} worst {row['worst_ratio']:.2f} "
                  f"gain {row['mean_gain_u']:+.4f} u (sdpa {row['sdpa_mean_gain_u']:+.4f})", flush=True)
    (out / "accuracy_ab.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
