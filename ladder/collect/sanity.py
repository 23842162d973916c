"""Collects the sanity gate: the child's hygiene observations per configuration, and
compute-sanitizer (memcheck, racecheck, ...) on the standalone driver at the floor's small
shapes, where torch is not in the way and reads past a tensor's exact end are seen."""
import time
from concurrent.futures import ThreadPoolExecutor

from ..toolchain.helpers import shared_library
from ..toolchain.ninja_build import artifacts
from ..tools import find
from ..watchdog import run_watched
from . import run_configs


def sanitizer_command(tool, driver, shape):
    args = [str(shape[k]) for k in ("B", "H", "S_q", "S_k", "D")] + [shape["dtype"], str(int(shape["causal"])), "1"]
    # memcheck: a padding buffer after every allocation, so a read just past one tensor's end is
    # flagged even where the allocator put the next tensor right behind it (the oob_read
    # control passed memcheck without it: K's over-read landed in V).
    extra = {"racecheck": ["--racecheck-report", "hazard"], "memcheck": ["--padding", "512"]}.get(tool, [])
    return [find("compute-sanitizer"), "--tool", tool, "--error-exitcode", "99", "--print-limit", "10",
            *extra, str(driver), *args]


def collect(job):
    from ..layout import PACKAGE
    section = job.inputs["section"]
    producer = str(shared_library(PACKAGE / "gpu" / "producer.cu"))
    children = run_configs(job, "sanity", section["timeout_s"], extra={"producer_lib": producer})
    san = section["sanitizer"]

    def runs(config):
        driver = artifacts(job.spec, config)["driver"]
        out = {}
        for tool in san["tools"]:
            found = None
            for shape in san["shapes"]:
                if found is not None:
                    # One finding fails the gate already; racecheck on a kernel with a race
                    # takes minutes per shape (it reports every hazard), so the rest are skipped.
                    out[tool].append({"shape": shape, "skipped_after": found})
                    continue
                cmd = sanitizer_command(tool, driver, shape)
                t0 = time.perf_counter()
                o = run_watched(cmd, san["timeout_s"])
                seconds = round(time.perf_counter() - t0, 1)
                job.log.append(f"== config {config}: compute-sanitizer {tool} ({seconds} s)\n$ {' '.join(cmd)}\n"
                               f"{o.output}")
                out.setdefault(tool, []).append({"shape": shape, "returncode": o.returncode, "timed_out": o.timed_out,
                                                 "seconds": seconds, "output": o.tail(25)})
                if o.timed_out or o.returncode != 0:
                    found = shape
        return config, out

    with ThreadPoolExecutor(max_workers=4) as pool:
        sanitized = dict(pool.map(runs, [c["name"] for c in job.configs]))
    return {"configs": {c["name"]: {"child": children[c["name"]], "sanitizer": sanitized[c["name"]]}
                        for c in job.configs}}
