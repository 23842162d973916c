#!/bin/bash
# Ninth session, device call 10: seventh/pipes_e_d.sh's ncu record (pipe use and DRAM traffic of
# phase_e `e` and phase_d `d`, each beside cuDNN, one call per shape) on this session's kernel,
# with the libraries built on the CPU and carried in dev/.build. A dev record, not gate evidence.
set -u
L="$OUT/pipes"; mkdir -p "$L"
B=phases/phase_e/dev/.build
M=$(python3 phases/phase_e/dev/pipes.py --metrics)
for lib in e d; do
  ncu --clock-control none -k regex:'attn_fwd|sdpa' --csv --page raw --metrics "$M" \
    python3 phases/phase_e/dev/pipes.py --build $B --lib $lib > "$L/pipes_$lib.csv" 2> "$L/pipes_$lib.err"
  echo "ncu $lib rc=$?" >> "$L/run.log"
done
cat "$L/run.log"
tar czf "$OUT/pipes.tgz" -C "$OUT" pipes
