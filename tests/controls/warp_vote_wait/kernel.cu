// Negative control for sanity's synccheck: a warpgroup instruction reached at different places.
//
// phase_d's kernel with one defect switched on: the wait for the in-flight P·V (wgmma.wait_group,
// .sync.aligned: all four warps of the warpgroup must execute the same instruction) sits behind
// a warp vote on whether any of the warp's rows moved its maximum. When one warp of a warpgroup
// moved and another did not, the first waits inside the branch and the second at the wait after
// it. That was phase_d's and phase_e's own code until the seventh session of phase_e; no
// correctness run ever showed a wrong answer from it, and compute-sanitizer synccheck reports it
// ("Mismatching warpgroup instruction pc between warps") at the floor's d=128 sanitizer shape.
#define ATTN_CONTROL_WARP_VOTE_WAIT 1
#include "../../../phases/phase_d/kernel.cu"
