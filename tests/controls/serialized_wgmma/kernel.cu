// Negative control for the build gate: wgmma serialised by ptxas.
//
// phase_d's kernel, unchanged but for one defect switched on: an ordinary instruction (add.f32
// x, x, 0) writes an S accumulator register after the Q·Kᵀ wgmma instructions are issued and
// before the wgmma.wait_group that retires them. ptxas cannot keep that register untouched while
// the asynchronous wgmma owns it, so it serialises the wgmma pipeline of the function and reports
// it (ptxas -v, "Potential Performance Loss: wgmma.mma_async instructions are serialized ...",
// code C7514 with nvcc 13.0, an info line). The kernel stays correct (x + 0 == x, computed
// after the wgmma retires): only the build gate can tell it apart, by that line in the log.
#define ATTN_CONTROL_TOUCH_ACCUMULATOR 1
#include "../../../phases/phase_d/kernel.cu"
