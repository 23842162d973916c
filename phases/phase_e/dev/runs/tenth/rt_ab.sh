#!/bin/bash
# Tenth session, device calls 6-7: RESCALE_T=8 (e_rt8) against e (call 7: l sums the packed P), with e_aa (a copy of e's library)
# as an A/A control. Correctness sweep of e_rt8_trap, then three rotated-order passes of
# time_variants.py (ab set).
set -u
L="$OUT/logs"; mkdir -p "$L"
timeout 120 python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stage correct:e_rt8_trap > "$L/correct.log" 2>&1
echo "correct rc=$?"; tail -2 "$L/correct.log"
NAMES=e,e_rt8,e_aa SHAPES=ab bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
cat "$L"/tv*.log
