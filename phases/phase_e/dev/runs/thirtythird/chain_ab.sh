#!/bin/bash
# (Needs dev/runs/thirtythird/chain.patch applied to phases/phase_e: kernel.cu and gate.yaml were
# put back to 2b3385c's text at the end of the session, so that the committed records match them.)
# Thirty-third session, call 1: the chained persistent d=64 kernel (PERSIST_D64=1, the new
# default `e`) against the build without it (`e_pd0`) and phase_d (`d`); NOTES.md, "Chained items".
# Libraries built on the CPU: check.py --stages build --libs e,e_pd0,e_trap,e_main_trap,e_sk1_trap,d,
# and dev/.build/driver (standalone_main.cu, -DATTN_SPIN_TRAP=1, the default switches).
# 1. correctness sweeps (concurrently) of e_trap, e_main_trap (the main kernel on every shape:
#    chained items of 1-9 key tiles) and e_sk1_trap (SK_TAIL on rows of any length), gate LSE bound;
# 2. compute-sanitizer on the driver at chained d=64 shapes (280 items of 5 tiles, warpgroups 1-2
#    past S_q in every other; 140 items of 16 tiles with the SK tail), fp16 and bf16;
# 3. SK fold determinism (30 repeats) and error against e_pd0 (runs/ninth/sk_repeat.py d64);
# 4. three rotated same-process timings of e, e_pd0, d over chain64.
set -u
L=/tmp/chain_logs; mkdir -p "$L"; t0=$SECONDS
B=phases/phase_e/dev/.build
for lib in e_trap e_main_trap e_sk1_trap; do
  LSE_GATE=1 timeout 200 python3 phases/phase_e/dev/check.py --out "$L/chk_$lib" --bundle "" --stage "correct:$lib" \
    > "$L/correct_$lib.log" 2>&1 &
done
wait
for lib in e_trap e_main_trap e_sk1_trap; do
  echo "correct $lib: $(grep -c ' OK$' "$L/correct_$lib.log") OK, $(grep -c FAIL "$L/correct_$lib.log") FAIL"
  tail -1 "$L/correct_$lib.log"; grep -m8 "FAIL\|Error\|error" "$L/correct_$lib.log"
done
echo "(correctness $((SECONDS - t0)) s)"
for tool in memcheck racecheck synccheck; do
  for args in "2 70 200 600 64 fp16" "2 70 200 600 64 bf16" "1 70 200 2000 64 fp16"; do
    tag=$(echo "$tool $args" | tr ' ' '_')
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$B/driver" $args 0 1 --check > "$L/san_$tag.log" 2>&1
    echo "sanitize $tool $args: rc $? $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$L/san_$tag.log") $(grep -m1 -i 'max.*err\|check' "$L/san_$tag.log" | cut -c1-100)"
  done
done
echo "(sanitizers $((SECONDS - t0)) s)"
timeout 150 python3 phases/phase_e/dev/runs/ninth/sk_repeat.py d64 > "$L/sk_repeat.log" 2>&1
echo "sk_repeat rc $?"; cat "$L/sk_repeat.log"
n=0
for order in e,e_pd0,d e_pd0,d,e d,e,e_pd0; do
  n=$((n + 1))
  timeout 150 python3 phases/phase_e/dev/time_variants.py --build $B --shapes chain64 --rounds 40 --names $order > "$L/tv$n.log" 2>&1
  echo "tv$n rc $? ($((SECONDS - t0)) s)"; cat "$L/tv$n.log"
done
tar czf "$OUT/logs.tgz" -C /tmp chain_logs
echo "total: $((SECONDS - t0)) s"
