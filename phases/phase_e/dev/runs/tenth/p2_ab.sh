#!/bin/bash
# Tenth session, device call 8: P_DOUBLE (e_p2: P in two alternating buffers at d=128) against
# e_orig (the shipped kernel of ecad3f3, built on the CPU) and e (the refactored loop with
# P_DOUBLE=0). Correctness sweep of e_p2_trap, then three rotated-order passes (ab set).
set -u
L="$OUT/logs"; mkdir -p "$L"
timeout 120 python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stage correct:e_p2_trap > "$L/correct.log" 2>&1
echo "correct rc=$?"; tail -1 "$L/correct.log"; grep FAIL "$L/correct.log" | head -5
NAMES=e_orig,e_p2,e SHAPES=ab bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
cat "$L"/tv*.log
