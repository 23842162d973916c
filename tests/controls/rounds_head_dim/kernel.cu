// Control rounds_head_dim: takes any head dim up to 128 that keeps rows 16-byte aligned and runs
// it on the next kernel it has, D=64 or D=128, as a dispatch written `D <= 64 ? 64 : 128` does:
// it reads and writes past the end of every row. Correct at D=64 and D=128, the only head dims
// every other check poses.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (p == nullptr || p->D < 8 || p->D > 128) return cudaErrorInvalidValue;
  AttnParams rounded = *p;
  rounded.D = p->D <= 64 ? 64 : 128;
  if (!control::supported(&rounded)) return cudaErrorInvalidValue;
  return control::launch(rounded, stream);
}
