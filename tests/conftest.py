"""Test set-up. GPU tests carry the `gpu` marker: skipped where no CUDA device is visible, and a
failure instead of a skip when REQUIRE_GPU=1, so a GPU job can never pass without running them."""
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _cuda_available():
    from ladder.environment import cuda_probe
    return cuda_probe()["available"]


def pytest_runtest_setup(item):
    if "gpu" not in item.keywords or _cuda_available():
        return
    if os.environ.get("REQUIRE_GPU") == "1":
        pytest.fail("REQUIRE_GPU=1 but no CUDA device is available")
    pytest.skip("needs a CUDA device (REQUIRE_GPU=1 makes this a failure)")


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A copy of the repository's phases/, kernels/ and tests/controls/ under tmp_path, with
    LADDER_ROOT pointing at it, so a test can edit and break things freely. Returns the root."""
    for sub in ("phases", "kernels"):
        shutil.copytree(ROOT / sub, tmp_path / sub)
    if (ROOT / "tests" / "controls").is_dir():
        shutil.copytree(ROOT / "tests" / "controls", tmp_path / "tests" / "controls")
    monkeypatch.setenv("LADDER_ROOT", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return tmp_path
