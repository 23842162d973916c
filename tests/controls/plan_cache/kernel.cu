// Control plan_cache: caches the key/value half of its plan (S_k and the k and v strides: what a
// pair of cached TMA tensor maps would hold) keyed on the k and v addresses and the head
// geometry (B, H, D, dtype), but not on S_k. A later call whose k and v start at the same
// addresses with fewer keys (views of the same buffers) runs with the earlier S_k and reads the
// earlier problem's keys; every call at one shape, and every call at fresh addresses, is right.
//
// PLAN_KEY_HAS_S_K 1 (tests/controls/stride_cache) puts S_k in the key as well, leaving only the
// strides out: then the plan is wrong only for views of the same sizes with other row strides.
//
// PLAN_STORE_WHEN_WARM 1 (tests/controls/plan_cache_when_warm) stores a plan only from a call of a
// problem called more than control::kHotCalls (1000) times in the process (a plan made for a hot
// problem) and looks plans up on every call.
#ifndef PLAN_KEY_HAS_S_K
#define PLAN_KEY_HAS_S_K 0
#endif
#ifndef PLAN_STORE_WHEN_WARM
#define PLAN_STORE_WHEN_WARM 0
#endif
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"
#include "../_common/hot.cuh"

namespace {

struct KvPlan {
  const void *k = nullptr, *v = nullptr;
  int32_t B = 0, H = 0, D = 0, dtype = 0;
  int32_t S_k = 0;
  int64_t k_stride_b = 0, k_stride_h = 0, k_stride_s = 0, v_stride_b = 0, v_stride_h = 0, v_stride_s = 0;
} g_plan;

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  AttnParams run = *p;
  const bool hit = g_plan.k == p->k && g_plan.v == p->v && g_plan.B == p->B && g_plan.H == p->H &&
                   g_plan.D == p->D && g_plan.dtype == p->dtype &&  // the strides are not in the key
                   (!PLAN_KEY_HAS_S_K || g_plan.S_k == p->S_k);
  if (hit) {
    run.S_k = g_plan.S_k;
    run.k_stride_b = g_plan.k_stride_b, run.k_stride_h = g_plan.k_stride_h, run.k_stride_s = g_plan.k_stride_s;
    run.v_stride_b = g_plan.v_stride_b, run.v_stride_h = g_plan.v_stride_h, run.v_stride_s = g_plan.v_stride_s;
  } else if (!PLAN_STORE_WHEN_WARM || control::hot(*p)) {
    g_plan.k = p->k, g_plan.v = p->v, g_plan.S_k = p->S_k;
    g_plan.B = p->B, g_plan.H = p->H, g_plan.D = p->D, g_plan.dtype = p->dtype;
    g_plan.k_stride_b = p->k_stride_b, g_plan.k_stride_h = p->k_stride_h, g_plan.k_stride_s = p->k_stride_s;
    g_plan.v_stride_b = p->v_stride_b, g_plan.v_stride_h = p->v_stride_h, g_plan.v_stride_s = p->v_stride_s;
  }
  return control::launch(run, stream);
}
