"""The build gate on phase_a with the real compiler (no GPU needed), and the spec assertions it
checks: each one is shown to reject a kernel that breaks it."""
import shutil

import pytest

from helpers import ROOT
from ladder.collect import Job
from ladder.collect import build as collect_build
from ladder.gates import build as build_gate
from ladder.spec import load_spec
from ladder.tools import available

pytestmark = pytest.mark.skipif(not (available("nvcc") and available("cuobjdump")),
                                reason="needs nvcc and cuobjdump (make setup installs cuobjdump)")


def _phase_a(tmp_path, **assertions):
    d = tmp_path / "phases" / "phase_a"
    shutil.copytree(ROOT / "phases" / "phase_a", d)
    if assertions:
        text = (d / "gate.yaml").read_text()
        lines = [l for l in text.splitlines(keepends=True) if not any(l.strip().startswith(f"{k}:") for k in assertions)]
        text = "".join(lines).replace("  assert:\n", "  assert:\n" + "".join(f"    {k}: {v}\n" for k, v in assertions.items()))
        (d / "gate.yaml").write_text(text)
    return load_spec(d)


def build(spec):
    """(raw, derived) of the build gate, as the runner gets them."""
    job = Job(spec=spec, gate="build", inputs={"section": spec.data["build"]}, configs=[], device="cpu", probe={})
    raw = collect_build.collect(job)
    return raw, build_gate.derive(raw, {"section": spec.data["build"]}), job.headers


def test_phase_a_builds_and_its_assertions_hold(tmp_path):
    raw, d, headers = build(_phase_a(tmp_path))
    assert d["status"] == "pass", d["reason"]
    cfg = d["configs"]["w4r8"]
    fns = cfg["arches"]["sm_90a"]["functions"]
    assert len(fns) == 4  # fp16/bf16 x D 64/128
    assert all(f["spill_store_bytes"] == 0 and f["stack_bytes"] == 0 for f in fns.values())
    assert cfg["arches"]["sm_90a"]["sass_histogram"]["FFMA"] > 0
    assert cfg["dynamic_smem_bytes"]["D128_fp16"] > 48 * 1024
    assert "kernels/attn_abi.h" in headers and "kernels/attn_common.cuh" in headers  # from the depfiles


@pytest.mark.parametrize("assertion, value, expected", [
    ("max_registers", 32, "registers > max_registers 32"),
    ("max_smem_bytes", 4096, "shared memory (static + dynamic) > max_smem_bytes 4096"),
    ("sass_require", "[HGMMA]", "required SASS opcode HGMMA not found"),
    ("sass_forbid", "[FFMA]", "forbidden SASS opcode FFMA"),
])
def test_each_assertion_can_fail(tmp_path, assertion, value, expected):
    _, d, _ = build(_phase_a(tmp_path, **{assertion: value}))
    assert d["status"] == "fail" and expected in d["reason"], d["reason"]


def test_a_forbidden_ptxas_warning_fails_the_build():
    log = ("ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
           "ptxas warning : (C7515) Potential Performance Loss: wgmma.mma_async instructions are serialized due to "
           "non wgmma instructions defining accumulator registers of a wgmma between start and end of the pipeline "
           "stage in the function 'k'\nptxas info    : Used 90 registers, used 1 barriers\n")
    section = {"configs": [{"name": "c", "sweep": False}], "arches": ["sm_90a"],
               "assert": {"max_registers": None, "max_smem_bytes": None, "max_spill_bytes": None,
                          "max_stack_bytes": None, "sass_require": [], "sass_forbid": [],
                          "ptxas_warnings_forbid": ["C7510", "C7511", "C7512", "C7513", "C7514", "C7515"]}}
    raw = {"configs": {"c": {"arches": {"sm_90a": {"ptxas_log": log, "res_usage": "", "sass_opcodes": {"k": {}}}},
                             "dynamic_smem": {}}}}
    d = build_gate.derive(raw, {"section": section})
    assert d["status"] == "fail" and "forbidden ptxas warning C7515" in d["reason"]
    section["assert"]["ptxas_warnings_forbid"] = []
    assert build_gate.derive(raw, {"section": section})["status"] == "pass"


def test_a_compile_error_fails_with_the_compiler_message(tmp_path):
    spec = _phase_a(tmp_path)
    spec.kernel.write_text(spec.kernel.read_text() + "\nthis is not C++;\n")
    _, d, _ = build(spec)
    assert d["status"] == "fail" and "error" in d["reason"]


def test_a_sweep_config_may_be_rejected_but_not_an_explicit_one(tmp_path):
    spec = _phase_a(tmp_path)
    (spec.dir / "gate.yaml").write_text((spec.dir / "gate.yaml").read_text().replace(
        "  assert:", "  sweep:\n    axes: {ROWS_PER_WARP: [8, 3]}\n  assert:", 1))
    spec = load_spec(spec.dir)
    assert [c["name"] for c in spec.configs] == ["w4r8", "ROWS_PER_WARP=8", "ROWS_PER_WARP=3"]
    spec.kernel.write_text(spec.kernel.read_text().replace(
        "#ifndef ROWS_PER_WARP", '#if defined(ROWS_PER_WARP) && ROWS_PER_WARP == 3\n#error "three rows per warp do not '
        'split the block"\n#endif\n#ifndef ROWS_PER_WARP', 1))
    _, d, _ = build(spec)
    assert d["status"] == "pass", d["reason"]
    assert d["passing"] == ["w4r8", "ROWS_PER_WARP=8"] and "ROWS_PER_WARP=3" in d["rejected"]
    assert "three rows per warp" in d["rejected"]["ROWS_PER_WARP=3"]
