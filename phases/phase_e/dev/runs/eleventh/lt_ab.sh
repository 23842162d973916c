#!/bin/bash
# Eleventh session, device call 1: L_TENSOR (the row sum on the tensor cores), alone and with
# RESCALE_T=8. Both trap builds swept for correctness with the gate's LSE bound (LSE_GATE=1),
# then ninth/rotated_ab.sh on NAMES over SHAPES, and one pass over the short set (the seed).
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
for t in ${TRAPS//,/ }; do
  LSE_GATE=1 timeout 150 python3 phases/phase_e/dev/check.py --out "$L/chk_$t" --bundle "" --stage "correct:$t" > "$L/correct_$t.log" 2>&1
  echo "correct $t rc=$?"; tail -1 "$L/correct_$t.log"; grep FAIL "$L/correct_$t.log" | head -8
done
NAMES=$NAMES SHAPES=$SHAPES bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes short --rounds 30 --names "$NAMES" > "$L/tv_short.log" 2>&1
cat "$L"/tv*.log
