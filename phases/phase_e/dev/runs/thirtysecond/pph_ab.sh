#!/bin/bash
# Thirty-second session, call 2: the ping-pong turn held until this warpgroup's S has landed
# (PP_SOFTMAX=2, `e_pph64`; NOTES.md, "The turn held until S lands"). Built on the CPU with
# pp_softmax.patch applied (then PP_SOFTMAX 2 added to it) and carried in .build:
#   check.py --stages build --libs e,d,e_pph64,e_pph64_trap; driver_pph (standalone_main.cu with
#   -DATTN_SPIN_TRAP=1 -DPINGPONG_D64=1 -DPP_SOFTMAX=2).
# 1. three rotated timings of e, e_pph64, d over the loop64 shapes, one over `ab`;
# 2. the correctness sweep of e_pph64_trap with the gate's LSE bound;
# 3. compute-sanitizer memcheck, racecheck, synccheck on driver_pph, d=64 non-causal main kernel
#    with a partial last query tile, fp16 and bf16, with the driver's float64 check.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
B=phases/phase_e/dev/.build
n=0
for order in ${ORDERS:-e,e_pph64,d e_pph64,d,e d,e,e_pph64}; do
  n=$((n + 1))
  timeout 120 python3 phases/phase_e/dev/time_variants.py --build $B --shapes loop64 --rounds 40 --names $order > "$L/tv$n.log" 2>&1
  echo "tv$n rc $? ($((SECONDS - t0)) s)"; cat "$L/tv$n.log"
done
timeout 120 python3 phases/phase_e/dev/time_variants.py --build $B --shapes ab --rounds 30 --names e,e_pph64,d > "$L/tv_ab.log" 2>&1
echo "tv_ab rc $?"; cat "$L/tv_ab.log"
LSE_GATE=1 timeout 200 python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stage "correct:e_pph64_trap" > "$L/correct_e_pph64_trap.log" 2>&1
echo "correct e_pph64_trap rc $?: $(grep -c ' OK$' "$L/correct_e_pph64_trap.log") OK, $(grep -c FAIL "$L/correct_e_pph64_trap.log") FAIL"
tail -1 "$L/correct_e_pph64_trap.log"; grep FAIL "$L/correct_e_pph64_trap.log" | head -8
for tool in memcheck racecheck synccheck; do
  for dt in fp16 bf16; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$B/driver_pph" 1 4 400 1000 64 $dt 0 1 --check \
      > "$L/san_${tool}_$dt.log" 2>&1
    echo "sanitize $tool $dt: rc $? $(grep -m1 'ERROR SUMMARY' "$L/san_${tool}_$dt.log")"
  done
done
echo "total: $((SECONDS - t0)) s"
