// Negative control for phase_e's stream-K tail (SK_TAIL): an item cut between two CTAs loses one
// piece.
//
// phase_e's kernel with one defect switched on: of the two pieces of a cut item, the one that
// finishes second stores its own keys' result and never folds in the partial (O, m, l) the other
// piece left in the workspace. The output of such a row is the attention over part of its keys
// only: every value still finite, every element written, and, where the order in which the two
// pieces finish is the same from run to run, the same bits on every call. Only d=128 non-causal
// shapes with more items than SMs and rows of at least SK_TAIL_MIN_TILES key tiles reach the
// path; the floor's shapes do not, so this control's gate.yaml adds the sanity shape phase_e's
// own gate.yaml uses for it.
#define ATTN_CONTROL_SK_NO_FOLD 1
#include "../../../phases/phase_e/kernel.cu"
