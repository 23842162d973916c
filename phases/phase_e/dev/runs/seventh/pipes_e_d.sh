#!/bin/bash
# Device call step: ncu pipe use and DRAM traffic of phase_e (`e`) and phase_d (`d`), each beside
# cuDNN, one call per shape (dev/pipes.py's six). A dev record, not gate evidence: the profile
# gate runs only after performance passes. --clock-control none: the GPU's clocks stay as they are.
set -u
L="$OUT/pipes"; mkdir -p "$L"
B=phases/phase_e/dev/.build
# (Ninth session: libraries built on the CPU and carried are used as they are.)
if [ -f $B/e.so ] && [ -f $B/d.so ]; then echo "carried: $B/e.so $B/d.so" > "$L/build.log"
else python3 phases/phase_e/dev/check.py --out /tmp/pipes_build --bundle "" --stages build --libs e,d > "$L/build.log" 2>&1; fi
M=$(python3 phases/phase_e/dev/pipes.py --metrics)
for lib in e d; do
  ncu --clock-control none -k regex:'attn_fwd|sdpa' --csv --page raw --metrics "$M" \
    python3 phases/phase_e/dev/pipes.py --build $B --lib $lib > "$L/pipes_$lib.csv" 2> "$L/pipes_$lib.err"
  echo "ncu $lib rc=$?" >> "$L/build.log"
done
tar czf "$OUT/pipes.tgz" -C "$OUT" pipes
