#!/bin/bash
# evidence_e_all.sh, then the dev harness on the same machine: the shipped build against the
# previous default (128-key tiles non-causal too), built here (the evidence fills the carry room).
# Its logs come back as dev.tgz (at most 8 files come back).
set -u
bash phases/phase_e/dev/runs/sixth/evidence_e_all.sh
D=/tmp/dev_logs; mkdir -p $D
python3 phases/phase_e/dev/check.py --out $D --bundle "" --stages build --libs e,e_bn128 > $D/dev_build.log 2>&1
python3 phases/phase_e/dev/time_variants.py --build phases/phase_e/dev/.build --shapes short --names e,e_bn128 > $D/tv.log 2>&1
tail -n 14 $D/tv.log
tar czf "$OUT/dev.tgz" -C /tmp dev_logs
