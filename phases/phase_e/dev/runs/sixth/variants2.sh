#!/bin/bash
# Device call: the one-step key split (SHORT_KSPLIT_BN=256, with and without
# SHORT_ONE_STEP_KFIRST) against the shipped default and the rank-0 fold (e_f0), libraries built
# on the CPU (carried in dev/.build): full correctness sweeps of both trap builds and the special
# checks, then same-process timing (two passes, opposite name orders) and the stamps.
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader > "$L/gpu.txt"
python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" \
  --stages "correct:e_bn256_trap+correct:e_bn256_kf_trap+special:e_bn256_trap" > "$L/check.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes short --names e,e_bn256,e_bn256_kf,e_f0 > "$L/tv.log" 2>&1
for lib in e_stamps e_stamps_bn256 e_stamps_bn256_kf; do
  python3 phases/phase_e/dev/seed_chain.py --build $B --lib $lib > "$L/chain_$lib.log" 2>&1
done
python3 phases/phase_e/dev/time_variants.py --build $B --shapes short --names e_f0,e_bn256_kf,e_bn256,e > "$L/tv2.log" 2>&1
tail -n 40 "$L/check.log" "$L/tv.log" "$L/tv2.log"
tar czf "$OUT/logs.tgz" -C "$OUT" logs
