// Control misaligned: the 16-byte vector loads of q/k/v are taken one element (2 bytes) past the
// row start, so every uint4 load is misaligned and faults.
#define CONTROL_LOAD_ADDR(ptr) ((ptr) + 1)
#include "../_common/control_base.cuh"
