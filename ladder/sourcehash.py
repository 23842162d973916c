"""The source hash that ties evidence to what it measured: the phase's kernel and gate.yaml, the
shared kernels/ headers, the phases it is compared against, and the harness version. Evidence
whose recorded hash differs from today's is stale."""
import hashlib

from . import HARNESS_VERSION
from .layout import KERNELS, ROOT


def source_files(spec):
    files = {spec.kernel, spec.path}
    files.update(p for p in KERNELS.rglob("*") if p.is_file())
    # Headers a kernel includes from its own folder, or from a shared _common/ beside it.
    for d in (spec.dir, spec.dir.parent / "_common"):
        files.update(p for ext in ("*.cu", "*.cuh", "*.h") for p in d.glob(ext))
    perf = spec.data["performance"]
    others = {perf["workloads_from"]} | {t["vs"] for t in perf["targets"]}
    for name in sorted(o for o in others if o):
        d = spec.dir.parent / name
        if (d / "gate.yaml").is_file():
            files.add(d / "gate.yaml")
            files.update(p for p in d.glob("*.cu"))
    return sorted(files)


def _rel(path):
    try:
        return str(path.resolve().relative_to(ROOT.resolve()))
    except ValueError:
        return str(path)


def source_digests(spec):
    return {_rel(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in source_files(spec)}


def source_hash(spec):
    h = hashlib.sha256(f"harness:{HARNESS_VERSION}\n".encode())
    for rel, digest in sorted(source_digests(spec).items()):
        h.update(f"{rel}:{digest}\n".encode())
    return h.hexdigest()[:16]
