"""The build gate on phase_a with the real compiler (no GPU needed), and the spec assertions it
checks: each one is shown to reject a kernel that breaks it."""
import shutil

import pytest

from helpers import ROOT
from ladder.gates import Context
from ladder.gates import build
from ladder.spec import load_spec
from ladder.tools import available

pytestmark = pytest.mark.skipif(not (available("nvcc") and available("cuobjdump")),
                                reason="needs nvcc and cuobjdump (make setup installs cuobjdump)")


def _phase_a(tmp_path, **assertions):
    d = tmp_path / "phases" / "phase_a"
    shutil.copytree(ROOT / "phases" / "phase_a", d)
    if assertions:
        text = (d / "gate.yaml").read_text()
        extra = "".join(f"    {k}: {v}\n" for k, v in assertions.items())
        text = text.replace("  assert:\n", "  assert:\n" + extra)
        for k in assertions:  # drop phase_a's own value of an overridden key
            lines = text.splitlines(keepends=True)
            seen = [i for i, l in enumerate(lines) if l.strip().startswith(f"{k}:")]
            for i in seen[1:]:
                del lines[i]
            text = "".join(lines)
        (d / "gate.yaml").write_text(text)
    return load_spec(d)


def _build(spec):
    return build.run(Context(spec=spec, device="cpu", probe={}, out_dir=None))


def test_phase_a_builds_and_its_assertions_hold(tmp_path):
    r = _build(_phase_a(tmp_path))
    assert r.status == "pass", r.reason
    cfg = r.measurements["w4r8"]
    fns = cfg["arches"]["sm_90a"]["functions"]
    assert len(fns) == 4  # fp16/bf16 x D 64/128
    assert all(f["spill_store_bytes"] == 0 and f["stack_bytes"] == 0 for f in fns.values())
    assert cfg["arches"]["sm_90a"]["sass_histogram"]["FFMA"] > 0
    assert cfg["dynamic_smem_bytes"]["D128_fp16"] > 48 * 1024


@pytest.mark.parametrize("assertion, value, expected", [
    ("max_registers", 32, "registers > max_registers 32"),
    ("max_smem_bytes", 4096, "shared memory (static + dynamic) > max_smem_bytes 4096"),
    ("sass_require", "[HGMMA]", "required SASS opcode HGMMA not found"),
    ("sass_forbid", "[FFMA]", "forbidden SASS opcode FFMA"),
])
def test_each_assertion_can_fail(tmp_path, assertion, value, expected):
    r = _build(_phase_a(tmp_path, **{assertion: value}))
    assert r.status == "fail" and expected in r.reason, r.reason


def test_a_compile_error_fails_with_the_compiler_message(tmp_path):
    spec = _phase_a(tmp_path)
    spec.kernel.write_text(spec.kernel.read_text() + "\nthis is not C++;\n")
    r = _build(spec)
    assert r.status == "fail" and "error" in r.reason
