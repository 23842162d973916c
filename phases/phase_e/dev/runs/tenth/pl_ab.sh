#!/bin/bash
# Tenth session, device call 9: PARTIAL_LAST (e_pl) against e_orig (the shipped kernel of
# ecad3f3) and e_aa (a copy of e_orig: the A/A pair). Correctness sweep of e_pl_trap, then three
# rotated-order passes (d64 set).
set -u
L="$OUT/logs"; mkdir -p "$L"
timeout 120 python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stage correct:e_pl_trap > "$L/correct.log" 2>&1
echo "correct rc=$?"; tail -1 "$L/correct.log"; grep FAIL "$L/correct.log" | head -5
NAMES=e_orig,e_pl,e_aa SHAPES=d64 bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
cat "$L"/tv*.log
