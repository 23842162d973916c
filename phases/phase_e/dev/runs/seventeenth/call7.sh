#!/bin/bash
# Seventeenth session, device call 7 (H200, dev): the H200's gate run showed no gain from
# PERS_DEFER at (4,16,4096,128) (phase_e / phase_d 0.967 before and after) where the H100's
# showed 0.5%. Two sets of three rotated same-process passes, e (PERS_DEFER 1) / e_dd0 (0) / d,
# over the d=128 set, as device call 1 did on the H100.
set -u
for rep in 1 2; do
  OUT="$OUT/ab$rep" NAMES=e,e_dd0,d SHAPES=tile bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
done
cat "$OUT"/ab*/logs/tv*.log
