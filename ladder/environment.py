"""What machine, what software, what commit: recorded in every evidence file. The CUDA probe runs
in a child process so that the ladder's own process never holds a CUDA context a kernel can break."""
import functools
import json
import os
import platform
import subprocess
import sys

from .layout import ROOT

_PROBE = r"""
import json
out = {"available": False}
try:
    import torch
except Exception as e:
    out["reason"] = f"torch is not importable ({type(e).__name__}: {e})"
else:
    out["torch"] = torch.__version__
    out["torch_cuda"] = torch.version.cuda
    if not torch.cuda.is_available():
        out["reason"] = "no CUDA device (torch.cuda.is_available() is False)"
    else:
        p = torch.cuda.get_device_properties(0)
        out.update(available=True, gpu=p.name, sm_count=p.multi_processor_count,
                   capability=f"{p.major}.{p.minor}", memory_bytes=p.total_memory,
                   l2_bytes=getattr(p, "L2_cache_size", None),
                   smem_per_block_optin=getattr(p, "shared_memory_per_block_optin", None))
        try:
            import pynvml
            pynvml.nvmlInit()
            h = pynvml.nvmlDeviceGetHandleByIndex(0)
            out["driver"] = pynvml.nvmlSystemGetDriverVersion()
            out["sm_clock_max_mhz"] = pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM)
            out["mem_clock_max_mhz"] = pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_MEM)
            out["mem_bus_width_bits"] = pynvml.nvmlDeviceGetMemoryBusWidth(h)
            out["sm_clock_mhz"] = pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)
        except Exception as e:
            out["nvml"] = f"unavailable ({type(e).__name__}: {e})"
print(json.dumps(out))
"""


@functools.lru_cache(maxsize=None)
def cuda_probe():
    if os.environ.get("LADDER_FORCE_NO_GPU") == "1":
        return {"available": False, "reason": "no CUDA device (LADDER_FORCE_NO_GPU=1)"}
    try:
        r = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=300)
        return json.loads(r.stdout.strip().splitlines()[-1])
    except Exception as e:  # a probe that dies is the same as no device, with the reason kept
        return {"available": False, "reason": f"CUDA probe failed: {type(e).__name__}: {e}"}


def device_name():
    from .layout import device_slug
    probe = cuda_probe()
    return device_slug(probe["gpu"]) if probe["available"] else "cpu"


def _run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=ROOT).stdout.strip()
    except Exception:
        return ""


@functools.lru_cache(maxsize=None)
def git_state():
    """sha and dirty flag. Dirty: a tracked file modified, or an untracked file under phases/ or
    kernels/ (a new phase folder not committed yet). The device machine gets a copy of the tree
    that may carry no .git: the caller passes LADDER_GIT_SHA / LADDER_GIT_DIRTY there."""
    sha = os.environ.get("LADDER_GIT_SHA") or _run(["git", "rev-parse", "HEAD"]) or "unknown"
    dirty_env = os.environ.get("LADDER_GIT_DIRTY")
    if dirty_env is not None:
        dirty = dirty_env == "1"
    else:
        dirty = bool(_run(["git", "status", "--porcelain", "--untracked-files=no"]) or
                     _run(["git", "status", "--porcelain", "--untracked-files=all", "--", "phases", "kernels"]))
    return {"sha": sha, "dirty": dirty}


def versions():
    """The libraries derive() depends on: check-evidence recomputes with these."""
    import numpy
    import scipy
    return {"python": platform.python_version(), "numpy": numpy.__version__, "scipy": scipy.__version__}


@functools.lru_cache(maxsize=None)
def nvcc_version():
    from .tools import available, find
    if not available("nvcc"):
        return None
    out = _run([find("nvcc"), "--version"])
    return out.splitlines()[-1] if out else None


def environment():
    probe = cuda_probe()
    env = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "nvcc": nvcc_version(),
        "cuda_device": {k: v for k, v in probe.items()},
    }
    return env
