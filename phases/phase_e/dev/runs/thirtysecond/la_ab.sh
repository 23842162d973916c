#!/bin/bash
# Thirty-second session, call 3: Q·Kᵀ one tile ahead into a second S buffer (LOOKAHEAD_D64,
# `e_la64`, 64-key tiles) and the shipped loop on 64-key tiles (`e_bn64`); NOTES.md, "Q·Kᵀ one
# tile ahead". Built on the CPU with pp_softmax.patch (which carries LOOKAHEAD_D64 too) applied:
#   check.py --stages build --libs e,d,e_la64,e_la64_trap,e_bn64,e_la64w2; driver_la (standalone_main.cu
#   with -DATTN_SPIN_TRAP=1 -DLOOKAHEAD_D64=1 -DBLOCK_N_D64=64).
# 1. three rotated timings of e, e_la64, e_bn64, d over the loop64 shapes, one over `ab`;
# 2. the correctness sweep of e_la64_trap with the gate's LSE bound;
# 3. compute-sanitizer memcheck, racecheck, synccheck on driver_la (d=64 main kernel, a partial
#    last query tile and key tile), fp16 and bf16, with the driver's float64 check.
set -u
L=/tmp/la_logs; mkdir -p "$L"; t0=$SECONDS
B=phases/phase_e/dev/.build
n=0
for order in ${ORDERS:-e,e_la64,e_bn64,e_la64w2,d e_la64,e_bn64,e_la64w2,d,e e_la64w2,d,e,e_la64,e_bn64}; do
  n=$((n + 1))
  timeout 120 python3 phases/phase_e/dev/time_variants.py --build $B --shapes loop64 --rounds 40 --names $order > "$L/tv$n.log" 2>&1
  echo "tv$n rc $? ($((SECONDS - t0)) s)"; cat "$L/tv$n.log"
done
timeout 120 python3 phases/phase_e/dev/time_variants.py --build $B --shapes ab --rounds 30 --names e,e_la64,e_la64w2,d > "$L/tv_ab.log" 2>&1
echo "tv_ab rc $?"; cat "$L/tv_ab.log"
LSE_GATE=1 timeout 200 python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stage "correct:e_la64_trap" > "$L/correct_e_la64_trap.log" 2>&1
echo "correct e_la64_trap rc $?: $(grep -c ' OK$' "$L/correct_e_la64_trap.log") OK, $(grep -c FAIL "$L/correct_e_la64_trap.log") FAIL"
tail -1 "$L/correct_e_la64_trap.log"; grep FAIL "$L/correct_e_la64_trap.log" | head -8
for tool in memcheck racecheck synccheck; do
  for dt in fp16 bf16; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$B/driver_la" 1 4 400 1000 64 $dt 0 1 --check \
      > "$L/san_${tool}_$dt.log" 2>&1
    echo "sanitize $tool $dt: rc $? $(grep -m1 'ERROR SUMMARY' "$L/san_${tool}_$dt.log")"
  done
done
tar czf "$OUT/logs.tgz" -C /tmp la_logs
echo "total: $((SECONDS - t0)) s"
