#!/bin/bash
# Device call: a same-process A/B of phase_e builds made on the CPU (carried in dev/.build):
# optional correctness stages of check.py, then time_variants.py twice, the names in opposite
# orders, then optional seed_chain.py on stamps builds. Each of this session's dev calls was one
# invocation (dev/runs/SESSION_2026-11-23.md lists them):
#   CHECK="correct:e_x_trap+special:e_x_trap" SHAPES=short ROUNDS=40 NAMES=e,e_x STAMPS="e_stamps e_stamps_x" bash ab.sh
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
REV=$(echo "$NAMES" | tr ',' '\n' | tac | paste -sd,)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader > "$L/gpu.txt"
if [ -n "${CHECK:-}" ]; then
  python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stages "$CHECK" > "$L/check.log" 2>&1
fi
python3 phases/phase_e/dev/time_variants.py --build $B --shapes "$SHAPES" --rounds "${ROUNDS:-40}" --names "$NAMES" > "$L/tv.log" 2>&1
for lib in ${STAMPS:-}; do
  python3 phases/phase_e/dev/seed_chain.py --build $B --lib "$lib" > "$L/chain_$lib.log" 2>&1
done
python3 phases/phase_e/dev/time_variants.py --build $B --shapes "$SHAPES" --rounds "${ROUNDS:-40}" --names "$REV" > "$L/tv2.log" 2>&1
tail -n 40 "$L"/check.log "$L/tv.log" "$L/tv2.log" 2>/dev/null
tar czf "$OUT/logs.tgz" -C "$OUT" logs
