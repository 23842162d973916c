#!/bin/bash
# Device calls 2 and 3 of the eighth session: the persistent d=128 non-causal kernel (PERSIST)
# and the main-kernel prefetch (NEXT_PREFETCH=2) against the default: correctness sweeps (trap
# builds, CHECK), compute-sanitizer on a persistent grid with the real build (dev/.build/driver_ps,
# built with nvcc from kernels/standalone_main.cu and the PERSIST/NEXT_PREFETCH of the variant
# under test, no trap), then a same-process A/B of NAMES in both orders. Libraries built on the
# CPU (check.py --stages build --libs ...) and carried in dev/.build.
#   call 2: CHECK="correct:e_ps_pf2_trap+correct:e_ps_pf2_main_trap" NAMES=e,e_pf2,e_ps,e_ps_pf2 (driver_ps: PERSIST=1)
#   call 3: CHECK="correct:e_ps2_pf2_trap+correct:e_ps2_pf2_main_trap" NAMES=e,e_ps_pf2,e_ps2_pf2 (driver_ps: PERSIST=2)
#   call 9 (a6716a6): CHECK="correct:e_ps64_trap+correct:e_ps64_main_trap" NAMES=e,e_ps64 SHAPES=d64 SAN="<d=64 shapes>"
#           (driver_ps: PERSIST_D64=1, SHORT_KV=0, so that small d=64 grids reach the main kernel)
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader > "$L/gpu.txt"
REV=$(echo "$NAMES" | tr ',' '\n' | tac | paste -sd,)
python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stages "$CHECK" > "$L/check.log" 2>&1
# Default SAN: 140 items on 132 CTAs (8 take two), S_q=60: warpgroup 1 has no rows; 560 items,
# ~4 per CTA, warpgroup 1 with rows in every other item; S_k=100: one key tile per item.
SAN=${SAN:-"memcheck 1 140 60 200 128 bf16 0 1 --check;memcheck 2 140 130 300 128 fp16 0 1 --check;racecheck 1 140 60 200 128 fp16 0;racecheck 2 140 130 100 128 bf16 0;synccheck 1 140 60 200 128 bf16 0;synccheck 2 140 130 300 128 fp16 0"}
IFS=';' read -ra runs <<< "$SAN"
# (Call 9's driver was not in the carried folder and every sanitizer run said only "Target
# application doesn't exist": say so once, loudly, instead.)
[ -x "$B/driver_ps" ] || { echo "NO SANITIZER RUN: $B/driver_ps missing (build it on the CPU and carry it)" | tee -a "$L/san.txt"; runs=(); }
for args in "${runs[@]}"; do
  set -- $args; tool=$1; shift
  timeout 120 compute-sanitizer --tool $tool $B/driver_ps "$@" > "$L/san_${tool}_$2_$4_$5.log" 2>&1; echo "$tool $*: rc=$?" >> "$L/san.txt"
  tail -n 3 "$L/san_${tool}_$2_$4_$5.log" >> "$L/san.txt"
done
python3 phases/phase_e/dev/time_variants.py --build $B --shapes "${SHAPES:-ab}" --rounds 40 --names "$NAMES" > "$L/tv.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes "${SHAPES:-ab}" --rounds 40 --names "$REV" > "$L/tv2.log" 2>&1
tail -n 12 "$L/check.log"; cat "$L/san.txt"; cat "$L/tv.log" "$L/tv2.log"
tar czf "$OUT/logs.tgz" -C "$OUT" logs
