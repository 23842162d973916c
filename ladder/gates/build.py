"""Gate 1, build (runs with no GPU): compiles every configuration for every arch through a
generated build.ninja, reads registers / shared memory / stack / spills from ptxas and
`cuobjdump -res-usage`, takes a SASS opcode histogram from `cuobjdump -sass`, asks the library
how much dynamic shared memory it requests, and checks the spec's assertions."""
import json
import subprocess
import sys
import time

from ..build import ptxas, sass
from ..build.buildfile import BuildFailed, artifacts, run_ninja
from ..tools import find
from . import Result, summarize_failures

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
    """Calls the library's host-side attn_smem_bytes in a child (a bad library can crash)."""
    r = subprocess.run([sys.executable, "-c", _SMEM_QUERY, str(lib)], capture_output=True, text=True,
                       timeout=120)
    if r.returncode != 0:
        raise BuildFailed(f"attn_smem_bytes could not be called: {r.stderr.strip().splitlines()[-1:]}",
                          r.stderr)
    return json.loads(r.stdout)


def inspect(spec, config_name):
    """Resources and SASS of a built configuration, per arch and kernel function."""
    art = artifacts(spec, config_name)
    out = {}
    for arch, cubin in art["cubins"].items():
        report = ptxas.parse(art["ptxas_logs"][arch].read_text())
        res = sass.parse_res_usage(_cuobjdump("-res-usage", cubin))
        per_fn = sass.parse_sass(_cuobjdump("-sass", cubin))
        functions = {}
        for (fn, a), figures in report.items():
            if a != arch:
                continue
            r = res.get(fn, {})
            functions[fn] = dict(figures, res_usage=r,
                                 sass=sass.histogram({fn: per_fn.get(fn, {})}))
        out[arch] = {"functions": functions, "sass_histogram": sass.histogram(per_fn),
                     "_per_fn": per_fn}
    return out


def check(spec, config_name, arch, info, dyn_smem):
    """The spec's assertions against one arch's figures: a list of failure strings."""
    a = spec.data["build"]["assert"]
    fails = []
    where = f"{config_name}/{arch}"
    max_dyn = max(dyn_smem.values()) if dyn_smem else 0
    for fn, f in info["functions"].items():
        short = fn if len(fn) <= 60 else fn[:57] + "..."
        spill = f["spill_store_bytes"] + f["spill_load_bytes"]
        static_smem = f["res_usage"].get("SHARED", f["smem_bytes"])
        checks = [
            ("max_registers", f["registers"], "registers"),
            ("max_spill_bytes", spill, "bytes spilled"),
            ("max_stack_bytes", f["stack_bytes"], "bytes of stack frame"),
            ("max_smem_bytes", static_smem + max_dyn, "bytes of shared memory (static + dynamic)"),
        ]
        for key, observed, what in checks:
            limit = a[key]
            if limit is not None and observed is not None and observed > limit:
                fails.append(f"{where} {short}: {observed} {what} > {key} {limit}")
    per_fn = info["_per_fn"]
    for op in a["sass_require"]:
        if not sass.has_opcode(per_fn, op):
            fails.append(f"{where}: required SASS opcode {op} not found")
    for op in a["sass_forbid"]:
        hits = sass.functions_with(per_fn, op)
        if hits:
            fails.append(f"{where}: forbidden SASS opcode {op} in {len(hits)} kernel(s)")
    return fails


def run(ctx):
    spec = ctx.spec
    result = Result("pass", "")
    failures = []
    for config in spec.data["build"]["configs"]:
        name = config["name"]
        t0 = time.time()
        try:
            result.log.append(f"== config {name}: ninja")
            result.log.append(run_ninja(spec, config, spec.data["build"]["timeout_s"]))
            dyn = dynamic_smem(artifacts(spec, name)["lib"])
            info = inspect(spec, name)
        except BuildFailed as e:
            result.log.append(e.log)
            failures.append(f"{name}: {e}")
            result.measurements[name] = {"built": False, "error": str(e)}
            continue
        fails = []
        for arch, arch_info in info.items():
            fails += check(spec, name, arch, arch_info, dyn)
            arch_info.pop("_per_fn")
        failures += fails
        result.measurements[name] = {"built": True, "build_s": round(time.time() - t0, 2),
                                     "defines": config["defines"], "dynamic_smem_bytes": dyn,
                                     "arches": info, "failed_checks": fails}
        for arch, arch_info in info.items():
            for fn, f in arch_info["functions"].items():
                result.log.append(f"{name}/{arch} {fn}: {f['registers']} regs, {f['stack_bytes']} B stack, "
                                  f"{f['spill_store_bytes'] + f['spill_load_bytes']} B spill, "
                                  f"{f['res_usage'].get('SHARED', f['smem_bytes'])} B static smem")
            top = list(arch_info["sass_histogram"].items())[:12]
            result.log.append(f"{name}/{arch} SASS top opcodes: {top}")
    if failures:
        result.status, result.reason = "fail", summarize_failures(failures)
    else:
        n = len(spec.data["build"]["configs"])
        result.reason = f"{n} config(s) built for {', '.join(spec.data['build']['arches'])}; all assertions hold"
    result.measurements["summary"] = result.reason
    return result
