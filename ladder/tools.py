"""Finds the CUDA programs the gates call, with an error that says how to get each one."""
import functools
import glob
import os
import shutil
from pathlib import Path

from .errors import ToolMissing

_HINTS = {
    "nvcc": "install the CUDA toolkit (13.0) and put its bin/ on PATH, or set CUDA_HOME",
    "cuobjdump": "run `make setup` (installs the nvidia-cuda-cuobjdump package) or install the CUDA toolkit",
    "nvdisasm": "run `make setup` (installs the nvidia-cuda-nvdisasm package) or install the CUDA toolkit",
    "compute-sanitizer": "install the CUDA toolkit's compute-sanitizer",
    "ncu": "install Nsight Compute (ncu)",
}


def _candidates(name):
    cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    dirs = [Path(cuda_home) / "bin"] if cuda_home else []
    dirs += [Path("/usr/local/cuda/bin")]
    if name == "compute-sanitizer":
        dirs += [Path("/usr/local/cuda/compute-sanitizer")]
    if name == "ncu":
        dirs += [Path(p) for p in sorted(glob.glob("/opt/nvidia/nsight-compute/*"), reverse=True)]
    try:  # the pip wheels nvidia-cuda-cuobjdump / -nvdisasm put their binaries here
        import nvidia
        for base in nvidia.__path__:
            dirs += [Path(p) for p in sorted(glob.glob(os.path.join(base, "cu*", "bin")))]
            dirs += [Path(base) / "cuda_cuobjdump" / "bin", Path(base) / "cuda_nvdisasm" / "bin"]
    except ImportError:
        pass
    return [d / name for d in dirs]


@functools.lru_cache(maxsize=None)
def find(name):
    found = shutil.which(name)
    if found:
        return found
    for c in _candidates(name):
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    raise ToolMissing(f"{name} not found: {_HINTS.get(name, 'install it')}")


def available(name):
    try:
        find(name)
        return True
    except ToolMissing:
        return False
