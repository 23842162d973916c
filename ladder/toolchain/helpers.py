"""Builds the harness's own small CUDA helpers (the blocking kernel) into shared libraries,
cached by the source's content."""
import hashlib
import subprocess
from pathlib import Path

from ..layout import BUILD
from ..parsers import compiler_errors
from ..tools import find
from .ninja_build import BuildFailed


def shared_library(source, arch="sm_90"):
    source = Path(source)
    tag = hashlib.sha256(source.read_bytes() + arch.encode()).hexdigest()[:12]
    out = BUILD / "harness" / f"lib{source.stem}-{tag}.so"
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        cmd = [find("nvcc"), "-O2", "-std=c++17", f"-gencode=arch=compute_{arch[3:]},code={arch}",
               "-Xcompiler", "-fPIC", "-shared", "-o", str(out), str(source)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            errs = compiler_errors(r.stdout + r.stderr)
            raise BuildFailed(errs[0] if errs else f"nvcc exited {r.returncode}", r.stdout + r.stderr)
    return out
