#!/bin/bash
# evidence_e_all.sh, then the dev harness on the same machine: the shipped build against the
# short-row kernel as it was (e_short_prev) and against causal d=64 on the main kernel
# (e_causal_main), built here. Dev logs come back as dev.tgz (at most 8 files come back).
set -u
bash phases/phase_e/dev/runs/sixth/evidence_e_all.sh
D=/tmp/dev_logs; mkdir -p $D
python3 phases/phase_e/dev/check.py --out $D --bundle "" --stages build --libs e,e_short_prev,e_causal_main > $D/dev_build.log 2>&1
python3 phases/phase_e/dev/time_variants.py --build phases/phase_e/dev/.build --shapes d64 --names e,e_short_prev,e_causal_main > $D/tv.log 2>&1
python3 phases/phase_e/dev/time_variants.py --build phases/phase_e/dev/.build --shapes causal64 --names e,e_causal_main > $D/tv_causal.log 2>&1
tail -n 14 $D/tv.log $D/tv_causal.log
tar czf "$OUT/dev.tgz" -C /tmp dev_logs
