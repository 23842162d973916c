#!/bin/bash
# evidence_e_all.sh, then the dev harness on the same machine: the shipped build against the
# previous default (128-key tiles non-causal too), built here (the evidence fills the carry room).
set -u
bash phases/phase_e/dev/runs/sixth/evidence_e_all.sh
L="$OUT/logs"
python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stages build --libs e,e_bn128 > "$L/dev_build.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build phases/phase_e/dev/.build --shapes short --names e,e_bn128 > "$L/tv.log" 2>&1
tail -n 14 "$L/tv.log"
