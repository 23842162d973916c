"""The sequence-length chart (ladder/seqlen.yaml): per workload and kernel, the median of the
complete rounds and TFLOP/s. A chart, not a gate: the status says only whether every workload
was timed."""
import numpy as np

from .. import roofline
from . import special


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    out, missing = {}, []
    for w, got in zip(inputs["section"]["workloads"], raw["workloads"]):
        if got is None:
            missing.append(w["name"])
            continue
        rows = np.array([us for us, t in zip(got["us"], got["timed_out"]) if not t])
        flops = roofline.flops(w)
        out[w["name"]] = {"workload": w, "kernels": {n: {"median_us": float(np.median(rows[:, i])),
                                                         "tflops": flops / float(np.median(rows[:, i])) / 1e6}
                                                     for i, n in enumerate(got["names"])}}
    status = "fail" if missing or raw.get("failures") else "pass"
    reason = f"{len(out)} workload(s) timed" + (f"; missing {missing}" if missing else "") + \
        (f"; {raw['failures'][0]}" if raw.get("failures") else "")
    return {"status": status, "reason": reason, "workloads": out, "kernels": raw.get("kernels", [])}
