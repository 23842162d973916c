#!/bin/bash
# Device call 1 of the eighth session: NEXT_PREFETCH (the successor item's Q, and first K/V, into
# L2) against the default, same process, both orders; correctness sweeps of the prefetch builds
# (trap builds; the sweep's many-item grids are where a successor exists); and the per-item chain
# from the stamps at the two main-kernel shapes, with and without the prefetch. Libraries built
# on the CPU (check.py --stages build --libs e,e_pf1,e_pf2,e_pf2_trap,e_pf2_main_trap,e_stamps,e_stamps_pf2)
# and carried in dev/.build.
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader > "$L/gpu.txt"
python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stages "correct:e_pf2_trap+correct:e_pf2_main_trap" > "$L/check.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes ab --rounds 40 --names e,e_pf1,e_pf2 > "$L/tv.log" 2>&1
for lib in e_stamps e_stamps_pf2; do
  for shape in 4,16,4096,128 8,16,2048,64; do
    python3 phases/phase_e/dev/seed_chain.py --build $B --lib $lib --shape $shape > "$L/chain_${lib}_${shape//,/_}.log" 2>&1
  done
done
python3 phases/phase_e/dev/time_variants.py --build $B --shapes ab --rounds 40 --names e_pf2,e_pf1,e > "$L/tv2.log" 2>&1
tail -n 30 "$L/check.log" "$L/tv.log" "$L/tv2.log"; tail -n 12 "$L"/chain_*.log
tar czf "$OUT/logs.tgz" -C "$OUT" logs
