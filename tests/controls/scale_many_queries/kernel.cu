// Control scale_many_queries: uses 1/sqrt(D) whatever p.softmax_scale says, but only on problems
// of more than 1024 queries, as a kernel would whose path for many query tiles took the default
// scale. The correctness cases that long have one to three trials each; until trials took other
// scales across cases and groups as well as along t (ladder/cases.py, scale_varied), none of them
// ever ran at another scale, and the timed checks run at the control's own small workload.
#define CONTROL_SCALE(p) ((p).S_q > 1024 ? rsqrtf(float((p).D)) : (p).softmax_scale)
#include "../_common/control_base.cuh"
