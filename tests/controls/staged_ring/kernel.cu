// Control staged_ring: staged_params with a ring of six pinned host slots instead of one. Each
// call writes its key count and softmax scale into the next slot and copies that slot to a device
// symbol with cudaMemcpyToSymbolAsync on the caller's stream. The slot is read when the copy
// executes, so a call waiting behind busy work computes with the data of whichever later call
// reused its slot: only when more than six calls wait at once. Until the twenty-fifth session
// the queued check (ladder/gpu/queued.py) held at most six calls in flight and passed it.
#include <cuda_runtime.h>

namespace staged {
struct Plan {
  int keys;
  float scale;
};
__device__ Plan g_plan;
constexpr int kSlots = 6;
}  // namespace staged

#define CONTROL_KEY_LIMIT(p) (staged::g_plan.keys)
#define CONTROL_SCALE(p) (staged::g_plan.scale)
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

namespace {
staged::Plan* g_ring = nullptr;  // pinned, so the copies below are truly asynchronous
int g_next = 0;
}

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  if (g_ring == nullptr) {
    const cudaError_t err = cudaMallocHost(&g_ring, staged::kSlots * sizeof(staged::Plan));
    if (err != cudaSuccess) {
      cudaGetLastError();
      g_ring = nullptr;
      return err;
    }
  }
  staged::Plan* slot = g_ring + g_next;
  g_next = (g_next + 1) % staged::kSlots;
  slot->keys = p->S_k;
  slot->scale = p->softmax_scale;
  const cudaError_t err =
      cudaMemcpyToSymbolAsync(staged::g_plan, slot, sizeof(staged::Plan), 0, cudaMemcpyHostToDevice, stream);
  if (err != cudaSuccess) return err;
  return control::launch(*p, stream);
}
