// Control out_stride_cache: caches the output half of its plan (o's strides: what a cached TMA
// store map for o would hold) keyed on o's address and the problem's sizes (B, H, S_q, D,
// dtype), but not on o's strides. A later call whose o starts at the same address with the same
// sizes but other row strides (every other row of the same buffer) writes its rows with the
// earlier strides; every call into a fresh o, and every call at one layout, is right. Under the
// sanity gate before o and lse were held at one address through the same-address check, o was
// a fresh contiguous buffer in every call there, so this plan was never asked for other strides.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

namespace {

struct OutPlan {
  const void* o = nullptr;
  int32_t B = 0, H = 0, S_q = 0, D = 0, dtype = 0;
  int64_t o_stride_b = 0, o_stride_h = 0, o_stride_s = 0;
} g_plan;

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  AttnParams run = *p;
  const bool hit = g_plan.o == p->o && g_plan.B == p->B && g_plan.H == p->H && g_plan.S_q == p->S_q &&
                   g_plan.D == p->D && g_plan.dtype == p->dtype;  // o's strides are not in the key
  if (hit) {
    run.o_stride_b = g_plan.o_stride_b, run.o_stride_h = g_plan.o_stride_h, run.o_stride_s = g_plan.o_stride_s;
  } else {
    g_plan.o = p->o, g_plan.B = p->B, g_plan.H = p->H, g_plan.S_q = p->S_q, g_plan.D = p->D;
    g_plan.dtype = p->dtype;
    g_plan.o_stride_b = p->o_stride_b, g_plan.o_stride_h = p->o_stride_h, g_plan.o_stride_s = p->o_stride_s;
  }
  return control::launch(run, stream);
}
