#!/bin/bash
# (Needs dev/runs/thirtythird/chain.patch applied to phases/phase_e: kernel.cu and gate.yaml were
# put back to 2b3385c's text at the end of the session, so that the committed records match them.)
# Thirty-third session: one device call that checks the chained persistent d=64 kernel
# (PERSIST_D64=1, `e`) on the dev harness and, if it is correct and faster than the build
# without it (`e_pd0`), re-records phase_e with `make phase_e`, to save a machine start (two
# failed starts had cost 106 s of the 1800 before this was written). Runs over
# twentyseventh/stage.sh's staged evidence (phases a-e up to correctness) and the CPU-built
# dev/.build (e, e_pd0, e_main_trap, e_sk1_trap, d). Needs LADDER_GIT_SHA and LADDER_GIT_DIRTY.
# 1. correctness sweeps of e_main_trap (every d=64 shape on the main kernel: chained items of 1-9
#    key tiles) and e_sk1_trap (SK_TAIL on rows of any length), concurrently, gate LSE bound;
# 2. one same-process timing of e, e_pd0, d over chain64;
# 3. if both sweeps pass and e/e_pd0 at (8,16,2048,64) is under RATIO_MAX (0.985), `make phase_e`
#    alone (issue 13's 8 minutes), then the evidence tarred into $OUT.
set -u
L=/tmp/chain_logs; mkdir -p "$L"; t0=$SECONDS
B=phases/phase_e/dev/.build
M=$(python3 -c "from ladder.environment import device_name; print(device_name())")
[ -f "evidence/$M/phase_d/build.json" ] || { echo "no staged records for $M: make phase_e will not run"; NO_MAKE=1; }
echo "machine $M"
for lib in e_main_trap e_sk1_trap; do
  LSE_GATE=1 timeout 150 python3 phases/phase_e/dev/check.py --out "$L/chk_$lib" --bundle "" --stage "correct:$lib" \
    > "$L/correct_$lib.log" 2>&1 &
done
wait
ok=1
for lib in e_main_trap e_sk1_trap; do
  n_ok=$(grep -c ' OK$' "$L/correct_$lib.log"); n_fail=$(grep -c FAIL "$L/correct_$lib.log")
  echo "correct $lib: $n_ok OK, $n_fail FAIL"; tail -1 "$L/correct_$lib.log"; grep -m8 "FAIL\|Error\|error" "$L/correct_$lib.log"
  [ "$n_ok" -eq 176 ] && [ "$n_fail" -eq 0 ] || ok=0
done
echo "(correctness $((SECONDS - t0)) s)"
timeout 150 python3 phases/phase_e/dev/time_variants.py --build $B --shapes chain64 --rounds 40 --names e,e_pd0,d > "$L/tv1.log" 2>&1
echo "tv1 rc $? ($((SECONDS - t0)) s)"; cat "$L/tv1.log"
r=$(grep "^(8, 16, 2048, 64, False)" "$L/tv1.log" | grep -o "e_pd0/e=[0-9.]*" | cut -d= -f2)
echo "e_pd0/e at (8,16,2048,64): ${r:-none}"
tar czf "$OUT/logs.tgz" -C /tmp chain_logs
D=${DEADLINE:-585}  # seconds from the start: the call's limit less a margin for the tar
if [ $((D - (SECONDS - t0))) -lt 300 ]; then echo "$((D - (SECONDS - t0))) s left: make phase_e will not run"; NO_MAKE=1; fi
if [ -z "${NO_MAKE:-}" ] && [ "$ok" = 1 ] && [ -n "$r" ] && python3 -c "import sys; sys.exit(0 if 1/float('$r') < float('${RATIO_MAX:-0.985}') else 1)"; then
  /usr/bin/time -f "make phase_e wall %e s" timeout $((D - (SECONDS - t0))) make phase_e > "$L/make_phase_e.log" 2>&1
  echo "make phase_e rc $? ($((SECONDS - t0)) s)"; tail -25 "$L/make_phase_e.log"
  tar czf "$OUT/evidence_$M.tgz" "evidence/$M"
else
  echo "not re-recorded (correct=$ok, ratio ${r:-none})"
fi
tar czf "$OUT/logs.tgz" -C /tmp chain_logs
echo "total: $((SECONDS - t0)) s"
