#!/bin/bash
# Tenth session, device call 1: attn_span (phase_e with span.patch, -DATTN_SPAN=1) at the seed
# and three gate shapes; the binary is built on the CPU and carried in dev/.build.
set -u
B=phases/phase_e/dev/.build
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
for shape in "1 8 512 64" "16 16 512 64" "8 16 2048 64" "4 16 4096 128 0 100"; do
  $B/attn_span $shape
done 2>&1 | tee "$OUT/span.log"
