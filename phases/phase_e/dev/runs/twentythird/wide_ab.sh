#!/bin/bash
# Twenty-third session, written on the CPU and not yet run (the session had no device time):
# the d=64 non-causal main kernel on wider key tiles whose P·V reads P from shared memory
# (WIDE_D64; NOTES.md, "Session of 2026-11-28 (twenty-third)"). Before the call:
#   git apply phases/phase_e/dev/runs/twentythird/wide_d64.patch
#   python3 phases/phase_e/dev/check.py --out /tmp/wb --bundle "" --stages build \
#       --libs e,d,e_w192,e_w192_trap,e_w192_bar,e_w160,e_w160_trap,e_ss128,e_ss128_trap
# and carry phases/phase_e/dev/.build. In the call:
#   1. check.py's correctness sweep of the three trap builds with the gate's LSE bound, in parallel;
#   2. compute-sanitizer memcheck, racecheck and synccheck on a driver of the wide kernel, fp16
#      and bf16, with the driver's float64 check (a partial last key tile: 1000 keys);
#   3. two rotated triples over time_variants.py's `wide64` shapes: e, e_w192, e_ss128 (the
#      wider tile, and the shared-memory P alone at today's tile), then e, e_w160, e_w192_bar.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
B=phases/phase_e/dev/.build
TRAPS=${TRAPS:-e_w192_trap,e_w160_trap,e_ss128_trap}
for t in ${TRAPS//,/ }; do
  LSE_GATE=1 timeout 240 python3 phases/phase_e/dev/check.py --out "$L/chk_$t" --bundle "" --stage "correct:$t" > "$L/correct_$t.log" 2>&1 &
done
wait
for t in ${TRAPS//,/ }; do
  echo "correct $t: $(grep -c ' OK$' "$L/correct_$t.log") OK, $(grep -c FAIL "$L/correct_$t.log") FAIL"; tail -1 "$L/correct_$t.log"; grep FAIL "$L/correct_$t.log" | head -8
done
echo "correctness: $((SECONDS - t0)) s"
nvcc -O3 -std=c++17 -lineinfo -I kernels -gencode=arch=compute_90a,code=sm_90a -I phases/phase_e \
  -DATTN_SPIN_TRAP=1 -DWIDE_D64=1 -o "$B/driver_wide" kernels/standalone_main.cu phases/phase_e/kernel.cu
for tool in memcheck racecheck synccheck; do
  for dt in fp16 bf16; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 "$B/driver_wide" 1 4 400 1000 64 $dt 0 1 --check \
      > "$L/san_${tool}_$dt.log" 2>&1
    echo "sanitize $tool $dt: rc $? $(grep -m1 'ERROR SUMMARY' "$L/san_${tool}_$dt.log")"
  done
done
echo "sanitizers: $((SECONDS - t0)) s"
n=0
for names in ${NAMES1:-e,e_w192,e_ss128} ${NAMES2:-e,e_w160,e_w192_bar}; do
  IFS=, read -r a b c <<< "$names"
  for order in "$a,$b,$c" "$b,$c,$a" "$c,$a,$b"; do
    n=$((n + 1))
    python3 phases/phase_e/dev/time_variants.py --build $B --shapes wide64 --rounds 40 --names $order > "$L/tv$n.log" 2>&1
  done
done
cat "$L"/tv*.log
echo "total: $((SECONDS - t0)) s"
