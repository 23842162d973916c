#!/bin/bash
# Tenth session, device calls 5-11: one dev A/B. TRAP (optional): a trap build swept for
# correctness first (check.py's correct stage); then ninth/rotated_ab.sh with NAMES (three builds)
# and SHAPES (a time_variants.py set); EXTRA (optional): one more pass on that shape set.
#   call 5:  TRAP=e_s2_trap  NAMES=e,e_s2,e_s2s3          SHAPES=d64
#   call 6:  TRAP=e_rt8_trap NAMES=e,e_rt8,e_aa           SHAPES=ab   (8653170)
#   call 7:  TRAP=e_rt8_trap NAMES=e,e_rt8,e_aa           SHAPES=ab   (0bfeb59)
#   call 8:  TRAP=e_p2_trap  NAMES=e_orig,e_p2,e          SHAPES=ab
#   call 9:  TRAP=e_pl_trap  NAMES=e_orig,e_pl,e_aa       SHAPES=d64
#   call 10: TRAP=e_w4_trap  NAMES=e_orig,e_w4,e_w4s6     SHAPES=d64  EXTRA=causal64
#   call 11:                 NAMES=e_orig,e_cw2_ns,e_cw2s4_ns SHAPES=d64
# (e_aa is a copy of the first library, an A/A pair; e_orig is the shipped kernel of ecad3f3,
# built on the CPU. The builds' commits are in the runs index.)
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
if [ -n "${TRAP:-}" ]; then
  timeout 120 python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stage "correct:$TRAP" > "$L/correct.log" 2>&1
  echo "correct rc=$?"; tail -1 "$L/correct.log"; grep FAIL "$L/correct.log" | head -5
fi
NAMES=$NAMES SHAPES=$SHAPES bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
if [ -n "${EXTRA:-}" ]; then
  python3 phases/phase_e/dev/time_variants.py --build $B --shapes "$EXTRA" --rounds 30 --names "$NAMES" > "$L/tv_$EXTRA.log" 2>&1
fi
cat "$L"/tv*.log
