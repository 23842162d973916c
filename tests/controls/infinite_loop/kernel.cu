// Control infinite_loop: every block first waits for a "ready" flag that nothing ever sets (a
// botched inter-block handshake). The flag is volatile, so the wait is not optimised away.
#include "attn_common.cuh"

__device__ volatile int control_ready = 0;

__device__ __forceinline__ void control_wait_until_ready() {
  while (control_ready == 0) {
  }
}

#define CONTROL_BLOCK_PROLOGUE(p, k_head) control_wait_until_ready()
#include "../_common/control_base.cuh"
