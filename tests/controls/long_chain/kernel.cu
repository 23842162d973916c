// Negative control for long accumulation chains: phase_e without its long-row flush.
//
// phase_e's kernel with FLUSH_KEYS past any row a call can have, so that no row ever takes the
// long-row variant: every key of a row goes into one wgmma accumulator chain, as phases d and e
// did before the fifteenth session. The tensor cores' fp32 accumulator then loses a little at
// each 16-key step, downward where V's entries share a sign, and at 70000 keys with V offset by
// 100 the output is about 1.25 fp16 units low on average (fourteenth session, H100). Every value
// is finite and every element written; only the value check at a long row sees it.
#define FLUSH_KEYS (1 << 30)
#include "../../../phases/phase_e/kernel.cu"
