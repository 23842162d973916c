#!/bin/bash
# Tenth session, device call 5: the short-row kernel with 128-row CTAs (e_s2: two consumer
# warpgroups sharing each K/V tile, two CTAs per SM; e_s2s3: with 3 stages). Correctness sweep
# of e_s2_trap, then three rotated-order passes of time_variants.py (d64 set) against e.
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
timeout 120 python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stage correct:e_s2_trap > "$L/correct.log" 2>&1
echo "correct rc=$?"; tail -4 "$L/correct.log"
NAMES=e,e_s2,e_s2s3 SHAPES=d64 bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
cat "$L"/tv*.log
