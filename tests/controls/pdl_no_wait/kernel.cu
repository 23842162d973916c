// Control pdl_no_wait: launched with programmatic dependent launch (programmatic stream
// serialisation) but never executes griddepcontrol.wait, so behind a kernel that lets it start
// early it reads its inputs before that kernel has written them. In back-to-back graph replays it
// also overlaps its own previous call, which flatters graph per-call times.
#define CONTROL_LAUNCH_PDL 1
#include "../_common/control_base.cuh"
