// Control shares_when_warm: static_workspace's shared scratch, taken only once a problem has been
// called more than control::kWarmCalls times in the process (a workspace set up for a hot
// problem). The sanity gate's concurrent calls come before that; the performance gate's, after
// its timing, do not.
#define SHARE_WHEN_WARM 1
#include "../static_workspace/kernel.cu"
