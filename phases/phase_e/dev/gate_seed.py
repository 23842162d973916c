"""Sets a gate.yaml's correctness trial seed in place (dev: the seed sweeps run the correctness
gate at seeds other than the records' 0 in a throw-away copy of the tree).

    python3 phases/phase_e/dev/gate_seed.py phases/phase_e/gate.yaml 3
"""
import sys

import yaml

path, seed = sys.argv[1], int(sys.argv[2])
with open(path) as f:
    spec = yaml.safe_load(f)
spec.setdefault("correctness", {})["seed"] = seed
with open(path, "w") as f:
    yaml.safe_dump(spec, f, sort_keys=False)
