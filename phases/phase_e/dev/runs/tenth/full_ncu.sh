#!/bin/bash
# Tenth session, device call 12: ncu's full section set (text) for phase_e's short-row kernel and
# cuDNN's kernel at (16,16,512,64), one call each (caches flushed between passes, ncu's default;
# --clock-control none: the GPU's clocks stay as they are). A record for whoever looks at that
# shape next, not gate evidence.
set -u
B=phases/phase_e/dev/.build
ncu --clock-control none --set full -k regex:'attn_fwd|cudnn' -c 2 --page details \
  python3 phases/phase_e/dev/pipes.py --build $B --lib e_orig --shape 16,16,512,64 > "$OUT/full_b16_s512.txt" 2> "$OUT/full_b16_s512.err"
echo "ncu rc=$?"; wc -l "$OUT/full_b16_s512.txt"; tail -3 "$OUT/full_b16_s512.err"
