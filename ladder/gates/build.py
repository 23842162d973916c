"""Gate 1, build (no GPU needed). Raw: per configuration and arch, the ptxas -v log, the
`cuobjdump -res-usage` text, the SASS opcode counts per kernel, and the dynamic shared memory the
library's attn_smem_bytes reports. Derived: registers, shared memory (static + dynamic), stack
and spill bytes per kernel, a SASS histogram, and the spec's assertions: max_* limits,
sass_require / sass_forbid, and ptxas_warnings_forbid (e.g. the C7510-C7515 wgmma-serialisation
warnings)."""
from .. import parsers
from . import by_config, special


def _functions(arch, log, res, sass):
    out = {}
    for (fn, a), figures in parsers.ptxas(log).items():
        if a != arch:
            continue
        r = res.get(fn, {})
        out[fn] = dict(figures, static_smem_bytes=r.get("SHARED", figures["smem_bytes"]),
                       sass=parsers.histogram({fn: sass.get(fn, {})}))
    return out


def check(assertions, name, arch, functions, sass, log, dyn_smem):
    """The spec's assertions against one arch's figures: a list of failure strings."""
    fails, where = [], f"{name}/{arch}"
    max_dyn = max(dyn_smem.values()) if dyn_smem else 0
    for fn, f in functions.items():
        short = fn if len(fn) <= 60 else fn[:57] + "..."
        checks = [
            ("max_registers", f["registers"], "registers"),
            ("max_spill_bytes", f["spill_store_bytes"] + f["spill_load_bytes"], "bytes spilled"),
            ("max_stack_bytes", f["stack_bytes"], "bytes of stack frame"),
            ("max_smem_bytes", f["static_smem_bytes"] + max_dyn, "bytes of shared memory (static + dynamic)"),
        ]
        for key, observed, what in checks:
            limit = assertions[key]
            if limit is not None and observed is not None and observed > limit:
                fails.append(f"{where} {short}: {observed} {what} > {key} {limit}")
    for op in assertions["sass_require"]:
        if not parsers.has_opcode(sass, op):
            fails.append(f"{where}: required SASS opcode {op} not found")
    for op in assertions["sass_forbid"]:
        hits = parsers.functions_with(sass, op)
        if hits:
            fails.append(f"{where}: forbidden SASS opcode {op} in {len(hits)} kernel(s)")
    for code, line in parsers.ptxas_warnings(log):
        if any(code.startswith(w) for w in assertions["ptxas_warnings_forbid"]):
            fails.append(f"{where}: forbidden ptxas warning {code}: {line[:160]}")
    return fails


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    section = inputs["section"]
    configs, failures, figures = [], {}, {}
    for c in section["configs"]:
        name, got = c["name"], raw["configs"].get(c["name"]) or {}
        configs.append({"name": name, "sweep": c["sweep"]})
        entry = figures[name] = {}
        if not got or got.get("error"):
            failures[name] = [f"build failed: {got.get('error', 'not built')}"]
            continue
        fails, entry["arches"] = [], {}
        for arch, a in got["arches"].items():
            fns = _functions(arch, a["ptxas_log"], parsers.res_usage(a["res_usage"]), a["sass_opcodes"])
            fails += check(section["assert"], name, arch, fns, a["sass_opcodes"], a["ptxas_log"], got["dynamic_smem"])
            entry["arches"][arch] = {"functions": fns, "sass_histogram": parsers.histogram(a["sass_opcodes"]),
                                     "ptxas_warnings": parsers.ptxas_warnings(a["ptxas_log"])}
        entry["dynamic_smem_bytes"] = got["dynamic_smem"]
        failures[name] = fails
    out = by_config(configs, failures, lambda ok: f"{len(ok)} config(s) built for "
                                                    f"{', '.join(section['arches'])}; all assertions hold")
    for name, entry in figures.items():
        entry["failed_checks"] = failures.get(name, [])
    out["configs"] = figures
    return out
