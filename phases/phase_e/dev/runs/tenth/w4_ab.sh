#!/bin/bash
# Tenth session, device call 10: d=64 with four consumer warpgroups and 64-key tiles (e_w4: 4
# stages; e_w4s6: 6) against e_orig (the shipped kernel of ecad3f3). Correctness sweep of
# e_w4_trap, three rotated-order passes (d64 set), then one pass of the causal64 set.
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
timeout 120 python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stage correct:e_w4_trap > "$L/correct.log" 2>&1
echo "correct rc=$?"; tail -1 "$L/correct.log"; grep FAIL "$L/correct.log" | head -5
NAMES=e_orig,e_w4,e_w4s6 SHAPES=d64 bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes causal64 --rounds 30 --names e_orig,e_w4,e_w4s6 > "$L/tv_causal64.log" 2>&1
cat "$L"/tv*.log
