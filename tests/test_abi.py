"""The ctypes mirror of AttnParams against the C struct: a probe compiled with nvcc prints sizeof
and every offsetof, and they must match the mirror's. The ABI version and dtype codes come from
the header itself."""
import subprocess

import pytest

from ladder import abi
from ladder.layout import KERNELS
from ladder.tools import available, find

PROBE = """
#include <cstddef>
#include <cstdio>
#include "attn_abi.h"
int main() {
  std::printf("sizeof %zu\\n", sizeof(AttnParams));
@FIELDS@
  return 0;
}
"""


@pytest.mark.skipif(not available("nvcc"), reason="needs nvcc")
def test_the_ctypes_mirror_matches_the_compiled_struct(tmp_path):
    size, offsets = abi.layout()
    lines = "\n".join(f'  std::printf("{f} %zu\\n", offsetof(AttnParams, {f}));' for f in offsets)
    src = tmp_path / "probe.cu"
    src.write_text(PROBE.replace("@FIELDS@", lines))
    exe = tmp_path / "probe"
    subprocess.run([find("nvcc"), f"-I{KERNELS}", "-o", str(exe), str(src)], check=True, capture_output=True)
    out = dict(line.split() for line in subprocess.run([str(exe)], capture_output=True, text=True,
                                                         check=True).stdout.splitlines())
    assert int(out.pop("sizeof")) == size
    assert {k: int(v) for k, v in out.items()} == offsets


def test_version_and_dtype_codes_come_from_the_header():
    text = (KERNELS / "attn_abi.h").read_text()
    assert f"#define ATTN_ABI_VERSION {abi.abi_version()}" in text
    assert abi.dtype_codes() == {"fp16": 0, "bf16": 1}
