"""Set-up: installs what this machine is missing, and nothing it already has.

Checks the Python distributions pyproject.toml names and the CUDA programs the build gate calls.
Missing ones are installed with pip; where pip cannot reach a package index (an air-gapped GPU
machine), set-up still succeeds when only optional pieces are missing (nox: the Makefile then
runs the harness directly) and fails, naming what is missing, when a required one is.
Standard library only: it runs before anything else is installed."""
import importlib.metadata as md
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPTIONAL_GROUPS = ("sessions",)


def _requirements():
    import tomllib  # Python >= 3.11
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = {"runtime": project["dependencies"]}
    groups.update(project["optional-dependencies"])
    return groups


def _dist(req):
    return re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0]


def _installed(req):
    try:
        md.version(_dist(req))
        return True
    except md.PackageNotFoundError:
        return False


def _cuda_tools_missing():
    sys.path.insert(0, str(ROOT))
    from ladder.tools import available
    return [t for t in ("cuobjdump", "nvdisasm") if not available(t)]


def _index_reachable(timeout_s=3.0):
    """Whether pip's package index answers at all: on an air-gapped machine pip would otherwise
    spend its retries and timeouts on every `make` before failing."""
    import os
    import socket
    from urllib.parse import urlparse
    url = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple")
    host = urlparse(url).hostname or "pypi.org"
    port = urlparse(url).port or (443 if url.startswith("https") else 80)
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
        return True
    except OSError:
        return False


def _pip_install(reqs):
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--retries", "1",
           "--timeout", "15", *reqs]
    print("set-up: " + " ".join(cmd), flush=True)
    return subprocess.run(cmd).returncode == 0


def main():
    groups = _requirements()
    missing = {g: [r for r in reqs if not _installed(r)] for g, reqs in groups.items() if g != "cuda-tools"}
    if _cuda_tools_missing():
        missing["cuda-tools"] = groups["cuda-tools"]
    wanted = [r for reqs in missing.values() for r in reqs]
    if not wanted:
        print("set-up: everything needed is installed")
    elif not _index_reachable():
        print(f"set-up: no package index reachable; not installing {', '.join(wanted)}")
    elif not _pip_install(wanted):
        # One at a time, so one unreachable optional package does not block the rest.
        for r in wanted:
            if not _installed(r):
                _pip_install([r])
    still = {g: [r for r in reqs if not _installed(r)] for g, reqs in missing.items() if g != "cuda-tools"}
    if "cuda-tools" in missing:
        importlib_reset()
        still["cuda-tools"] = _cuda_tools_missing()
    if shutil.which("nvcc") is None and not Path("/usr/local/cuda/bin/nvcc").exists():
        still["toolkit"] = ["nvcc (install the CUDA 13 toolkit; the build gate needs it)"]
    required = {g: r for g, r in still.items() if r and g not in OPTIONAL_GROUPS}
    optional = {g: r for g, r in still.items() if r and g in OPTIONAL_GROUPS}
    for g, r in optional.items():
        print(f"set-up: optional {g} not installed ({', '.join(r)}); the Makefile runs the harness directly")
    if required:
        print("set-up: error: still missing: " + "; ".join(f"{g}: {', '.join(r)}" for g, r in required.items()),
              file=sys.stderr)
        return 1
    return 0


def importlib_reset():
    import importlib
    importlib.invalidate_caches()
    for name in [m for m in sys.modules if m == "nvidia" or m.startswith("nvidia.") or m.startswith("ladder")]:
        del sys.modules[name]


if __name__ == "__main__":
    sys.exit(main())
