// Control dtype_cache: keeps the choice of kernel its last call made (the fp16 or the bf16
// instantiation) keyed on everything the call passes but the dtype: every address, size and
// stride, and the mask. A call at the same addresses and sizes in the other 16-bit type runs
// the earlier call's kernel and reads its inputs as the wrong type; every call at fresh
// addresses, and every call of one dtype, is right.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

#include <cstring>

namespace {

AttnParams g_key{};          // the last call's parameters, dtype and scale left out of the compare
int32_t g_dtype = -1;        // the kernel it chose

bool same_problem_but_dtype(const AttnParams& a, const AttnParams& b) {
  AttnParams x = a, y = b;
  x.dtype = y.dtype = 0;
  x.softmax_scale = y.softmax_scale = 0.f;
  return std::memcmp(&x, &y, sizeof x) == 0;
}

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  AttnParams run = *p;
  if (g_dtype >= 0 && same_problem_but_dtype(g_key, *p)) {
    run.dtype = g_dtype;
  } else {
    g_key = *p, g_dtype = p->dtype;
  }
  return control::launch(run, stream);
}
