// Control undefined_dtype: reads every dtype code but fp16's as bf16, as a dispatch written
// `dtype == ATTN_FP16 ? fp16 : bf16` does, so a code the ABI does not define is computed instead
// of refused. Correct for the two codes the ABI defines.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (p == nullptr) return cudaErrorInvalidValue;
  AttnParams read = *p;
  if (read.dtype != ATTN_FP16) read.dtype = ATTN_BF16;
  if (!control::supported(&read)) return cudaErrorInvalidValue;
  return control::launch(read, stream);
}
