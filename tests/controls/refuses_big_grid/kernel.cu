// Control refuses_big_grid: refuses B or H above 65535, as a kernel whose grid puts B and H in
// gridDim.z and gridDim.y must; correct for everything else.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p) || p->B > 65535 || p->H > 65535) return cudaErrorInvalidValue;
  return control::launch(*p, stream);
}
