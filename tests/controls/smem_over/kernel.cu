// Control smem_over: requests (and reports through attn_smem_bytes) 240 KB of dynamic shared
// memory per block, more than the 227 KB an H100 block may have.
#define CONTROL_SMEM_BYTES(D) (240 * 1024)
#include "../_common/control_base.cuh"
