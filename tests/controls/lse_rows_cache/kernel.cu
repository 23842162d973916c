// Control lse_rows_cache: caches the log-sum-exp half of its plan (the rows of one head in lse's
// layout, S_q: what a cached TMA store map for lse would hold as its extent) keyed on lse's
// address and B, H, D and dtype, but not on S_q. A later call whose lse starts at the same address
// with fewer queries writes each head's values where the earlier layout had them; o is right in
// every call, and so is lse in every call into a fresh lse or at one S_q. Only the same-address
// check's lse comparison sees it (the answer elsewhere has its lse at an address of its own).
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

namespace {

struct LsePlan {
  const float* lse = nullptr;
  int32_t B = 0, H = 0, D = 0, dtype = 0, rows = 0;
} g_plan;

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  if (p->lse == nullptr) return control::launch(*p, stream);
  const bool hit = g_plan.lse == p->lse && g_plan.B == p->B && g_plan.H == p->H && g_plan.D == p->D &&
                   g_plan.dtype == p->dtype;  // S_q is not in the key
  if (!hit) g_plan = {p->lse, p->B, p->H, p->D, p->dtype, p->S_q};
  return control::launch(*p, stream, g_plan.rows);
}
