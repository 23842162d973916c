#!/bin/bash
# Device call: the wait guard (WAIT_GUARD 1, the default) against the warpgroup vote (e_wg0):
# synccheck of both phases' default builds (standalone drivers) at the shapes where the warp vote
# failed or the main kernels run, then time_variants.py's `ab` shapes twice, opposite orders.
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
F="-O3 -std=c++17 -lineinfo -I kernels -gencode=arch=compute_90a,code=sm_90a -DATTN_SPIN_TRAP=1"
python3 phases/phase_e/dev/check.py --out /tmp/ab_build --bundle "" --stages build --libs e,e_wg0 > "$L/build.log" 2>&1 &
nvcc $F -I phases/phase_e -o /tmp/drv_e kernels/standalone_main.cu phases/phase_e/kernel.cu &
nvcc $F -I phases/phase_d -o /tmp/drv_d kernels/standalone_main.cu phases/phase_d/kernel.cu &
wait
for drv in /tmp/drv_e /tmp/drv_d; do
  for args in "1 1 200 333 128 bf16 0 1" "1 2 77 150 64 fp16 1 1" "4 16 257 129 128 bf16 1 1" \
              "4 12 385 300 64 fp16 0 1" "2 8 600 500 64 bf16 0 1" "1 8 512 512 64 bf16 0 1"; do
    compute-sanitizer --tool synccheck --error-exitcode 99 --print-limit 10 $drv $args >> "$L/synccheck.log" 2>&1
    echo "== $drv $args rc=$?" >> "$L/synccheck.log"
  done
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader > "$L/gpu.txt"
python3 phases/phase_e/dev/time_variants.py --build $B --shapes ab --rounds 30 --names e,e_wg0 > "$L/tv.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes ab --rounds 30 --names e_wg0,e > "$L/tv2.log" 2>&1
grep -E '^== |ERROR SUMMARY' "$L/synccheck.log" | paste - - | awk '{print $0}' | cut -c1-160
tail -n 20 "$L/tv.log" "$L/tv2.log"
tar czf "$OUT/logs.tgz" -C "$OUT" logs
