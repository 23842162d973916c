#!/bin/bash
# Twelfth session, device call 1: the softmax's prefix (SOFTMAX_TREE, SOFTMAX_VOTE). Both trap
# builds swept with the gate's LSE bound (in parallel: correctness only), then two rotated
# triples (ninth/rotated_ab.sh) over SHAPES, and one pass over the short set (the seed).
#   NAMES1=e_base,e,e_sv2  NAMES2=e_sm0,e_tree,e  TRAPS=e_sv1_trap,e_sv2_trap  SHAPES=d64
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
for t in ${TRAPS//,/ }; do
  LSE_GATE=1 timeout 200 python3 phases/phase_e/dev/check.py --out "$L/chk_$t" --bundle "" --stage "correct:$t" > "$L/correct_$t.log" 2>&1 &
done
wait
for t in ${TRAPS//,/ }; do
  echo "correct $t: $(grep -c ' OK$' "$L/correct_$t.log") OK, $(grep -c FAIL "$L/correct_$t.log") FAIL"; tail -1 "$L/correct_$t.log"; grep FAIL "$L/correct_$t.log" | head -8
done
for set in 1 2; do
  v=NAMES$set
  OUT="$OUT/ab$set" NAMES=${!v} SHAPES=$SHAPES bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
  echo "== $set: ${!v}"; cat "$OUT/ab$set/logs"/tv*.log
done
python3 phases/phase_e/dev/time_variants.py --build $B --shapes short --rounds 30 --names "$NAMES1" > "$L/tv_short.log" 2>&1
cat "$L/tv_short.log"
