// Control plan_cache_when_warm: plan_cache's address-keyed plan, stored only from a call of a
// problem called more than control::kHotCalls (1000) times in the process (a plan made for a hot
// problem). The sanity gate's calls at the same addresses come before that; the performance
// gate's, after its timing, do not.
#define PLAN_STORE_WHEN_WARM 1
#include "../plan_cache/kernel.cu"
