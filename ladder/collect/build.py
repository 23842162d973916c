"""Collects the build gate's raw data: every configuration compiled for every arch through a
generated build.ninja (in parallel), its ptxas -v log, `cuobjdump -res-usage` and the SASS opcode
counts per kernel, the dynamic shared memory the library reports (attn_smem_bytes, called in a
child: a broken library can crash), and the headers the compiler's depfiles list."""
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from .. import parsers
from ..layout import rel
from ..toolchain.ninja_build import BuildFailed, artifacts, depfile_headers, run_ninja
from ..tools import find

_SMEM_QUERY = r"""
import ctypes, json, sys
lib = ctypes.CDLL(sys.argv[1])
f = lib.attn_smem_bytes
f.restype, f.argtypes = ctypes.c_int, [ctypes.c_int, ctypes.c_int]
print(json.dumps({f"D{d}_{t}": f(d, i) for d in (64, 128) for i, t in enumerate(("fp16", "bf16"))}))
"""


def _cuobjdump(flag, cubin):
    r = subprocess.run([find("cuobjdump"), flag, str(cubin)], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise BuildFailed(f"cuobjdump {flag} failed: {r.stderr.strip()[:200]}", r.stderr)
    return r.stdout


def dynamic_smem(lib):
    r = subprocess.run([sys.executable, "-c", _SMEM_QUERY, str(lib)], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise BuildFailed(f"attn_smem_bytes could not be called: {r.stderr.strip().splitlines()[-1:]}", r.stderr)
    return json.loads(r.stdout)


def one_config(spec, config):
    """(raw for one configuration, build log, headers)."""
    try:
        log = run_ninja(spec, config, spec.data["build"]["timeout_s"])
        art = artifacts(spec, config["name"])
        arches = {}
        for arch, cubin in art["cubins"].items():
            arches[arch] = {"ptxas_log": art["ptxas_logs"][arch].read_text(),
                            "res_usage": _cuobjdump("-res-usage", cubin),
                            "sass_opcodes": parsers.sass_opcodes(_cuobjdump("-sass", cubin))}
        raw = {"arches": arches, "dynamic_smem": dynamic_smem(art["lib"])}
        return raw, log, depfile_headers(spec, config["name"])
    except BuildFailed as e:
        return {"error": str(e)}, e.log, []


def collect(job):
    spec = job.spec
    configs = spec.configs
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda c: one_config(spec, c), configs))
    raw, headers = {"configs": {}}, set()
    for config, (r, log, hs) in zip(configs, results):
        raw["configs"][config["name"]] = r
        job.log.append(f"== config {config['name']}: ninja\n{log}")
        headers.update(rel(h) for h in hs)
    job.headers = sorted(headers)
    return raw
