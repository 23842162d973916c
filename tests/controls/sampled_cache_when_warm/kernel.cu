// Control sampled_cache_when_warm: sampled_cache's result cache (keyed on the addresses, the
// problem and a sample of the contents), used only once a problem has been called more than
// control::kHotCalls (1000) times in the process. The sanity gate's single-row changes come before
// that; the performance gate's, after its timing, do not.
#define CACHE_WHEN_WARM 1
#include "../sampled_cache/kernel.cu"
