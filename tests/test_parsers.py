"""The ptxas and cuobjdump parsers, on compiler output captured from tests/fixtures/fixture_kernels.cu
(no GPU, no compiler needed)."""
from pathlib import Path

from ladder import parsers

FIX = Path(__file__).parent / "fixtures"


def test_ptxas_report():
    r = parsers.ptxas((FIX / "fixture_kernels.ptxas.txt").read_text())
    assert set(r) == {("mma_tile", "sm_90a"), ("spills", "sm_90a")}
    mma, sp = r[("mma_tile", "sm_90a")], r[("spills", "sm_90a")]
    assert (mma["registers"], mma["smem_bytes"], mma["barriers"], mma["stack_bytes"]) == (13, 4096, 1, 0)
    assert mma["spill_store_bytes"] == mma["spill_load_bytes"] == 0
    assert (sp["registers"], sp["stack_bytes"], sp["spill_store_bytes"], sp["spill_load_bytes"]) == (32, 672, 644, 648)


def test_ptxas_errors_are_found():
    text = "ptxas error   : Entry function 'k' uses too much shared data (0x3c000 bytes, 0xc000 max)\nok\n"
    assert parsers.compiler_errors(text) == ["ptxas error   : Entry function 'k' uses too much shared data (0x3c000 bytes, 0xc000 max)"]


def test_res_usage():
    r = parsers.res_usage((FIX / "fixture_kernels.res_usage.txt").read_text())
    assert r["mma_tile"]["SHARED"] == 5120 and r["mma_tile"]["REG"] == 13
    assert r["spills"]["STACK"] == 672 and r["spills"]["LOCAL"] == 0


def test_sass_histogram_and_opcode_queries():
    per_fn = parsers.sass_opcodes((FIX / "fixture_kernels.sass.txt").read_text())
    assert set(per_fn) == {"mma_tile", "spills"}
    hist = parsers.histogram(per_fn)
    assert hist["HMMA"] >= 1 and hist["LDSM"] >= 2 and hist["STL"] >= 1 and hist["LDL"] >= 1
    assert parsers.has_opcode(per_fn, "HMMA") and parsers.has_opcode(per_fn, "LDSM")
    assert parsers.has_opcode(per_fn, "HMMA.16816.F32")
    assert not parsers.has_opcode(per_fn, "HGMMA")
    assert not parsers.has_opcode(per_fn, "HMM")  # a prefix of an opcode name is not a match
    assert parsers.functions_with(per_fn, "LDL") == ["spills"]
    assert parsers.functions_with(per_fn, "LDSM") == ["mma_tile"]
    full = parsers.histogram(per_fn, base=False)
    assert any(op.startswith("LDSM.16.MT88") for op in full)  # the transposed ldmatrix


def test_predicated_instructions_are_counted():
    text = ("\t\tFunction : k\n"
            "        /*0450*/              @!P0 STL.128 [R1+0x10], R4 ;      /* 0x0000100401007387 */\n"
            "        /*0460*/              @P1 BRA 0x100 ;\n"
            "        /*0470*/                   EXIT ;\n")
    assert parsers.sass_opcodes(text)["k"] == {"STL.128": 1, "BRA": 1, "EXIT": 1}


def test_ptxas_warning_codes_are_found():
    text = ("ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
            "ptxas warning : (C7510) Potential Performance Loss: wgmma.mma_async instructions are serialized due to "
            "insufficient register resources for the wgmma pipeline in the function 'k'\n"
            "ptxas info    : Used 168 registers\n")
    assert [c for c, _ in parsers.ptxas_warnings(text)] == ["C7510"]
    info = ("ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized due to "
            "non wgmma instructions reading accumulator registers of  a wgmma between start and end of the pipeline "
            "stage in the function 'k'\n")   # as nvcc 13.0 prints it for tests/controls/serialized_wgmma
    assert [c for c, _ in parsers.ptxas_warnings(info)] == ["C7514"]
    assert parsers.ptxas_warnings("ptxas info    : Used 12 registers\n") == []


def test_sanitizer_summaries():
    assert parsers.sanitizer("========= ERROR SUMMARY: 0 errors\n", 0, False) == (True, "clean")
    dirty = "========= Invalid __global__ read of size 2 bytes\n========= ERROR SUMMARY: 1 error\n"
    clean, line = parsers.sanitizer(dirty, 99, False)
    assert not clean and "Invalid __global__ read" in line
    assert parsers.sanitizer("no summary at all\n", 0, False)[0] is False  # a tool that printed nothing is not clean
    assert parsers.sanitizer("", None, True) == (False, "timed out")
