#!/bin/bash
# Device call: the L2 prefetch before griddepcontrol.wait (SHORT_L2_PREFETCH)
# against the shipped default, libraries built
# on the CPU (carried in dev/.build): full correctness sweep of the trap build and the special
# checks, then same-process timing (two passes, opposite name orders) and the stamps.
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader > "$L/gpu.txt"
python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" \
  --stages "correct:e_l2p_trap+special:e_l2p_trap" > "$L/check.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes short --rounds 80 --names e,e_l2p > "$L/tv.log" 2>&1
for lib in e_stamps e_stamps_l2p; do
  python3 phases/phase_e/dev/seed_chain.py --build $B --lib $lib > "$L/chain_$lib.log" 2>&1
done
python3 phases/phase_e/dev/time_variants.py --build $B --shapes short --rounds 80 --names e_l2p,e > "$L/tv2.log" 2>&1
tail -n 40 "$L/check.log" "$L/tv.log" "$L/tv2.log"
tar czf "$OUT/logs.tgz" -C "$OUT" logs
