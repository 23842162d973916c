#!/bin/bash
# Nineteenth session, call 13: ncu pipe use and stall reasons of the shipped build (e) and the
# direct-store variant (e_ds) at two persistent d=128 shapes, libraries carried from this host.
# A dev record; --clock-control none (the GPU's clocks stay as they are).
set -u
L="$OUT/ds"; mkdir -p "$L"
B=phases/phase_e/dev/.build
M=$(python3 phases/phase_e/dev/pipes.py --metrics)
for shape in 16,16,1024,128 4,16,4096,128; do
  for lib in e e_ds; do
    ncu --clock-control none -k regex:'attn_fwd' --csv --page raw --metrics "$M" \
      python3 phases/phase_e/dev/pipes.py --build $B --lib $lib --shape $shape > "$L/${lib}_${shape//,/_}.csv" 2> "$L/${lib}_${shape//,/_}.err"
    echo "ncu $lib $shape rc=$?" >> "$L/ncu.log"
  done
done
cat "$L/ncu.log"
