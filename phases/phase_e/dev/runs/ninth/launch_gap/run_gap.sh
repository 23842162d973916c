#!/bin/bash
# Ninth session, device calls 15-16: attn_gap (phase_e's kernel, call 15 also without PDL, and phase_d's) at the
# seed and at (16,16,512,64); the binaries are built on the CPU and carried in dev/.build.
set -u
B=phases/phase_e/dev/.build
for bin in attn_gap attn_gap_d; do
  for shape in "1 8 512 64" "16 16 512 64"; do
    echo -n "$bin: "; $B/$bin $shape
  done
done | tee "$OUT/attn_gap.log"
