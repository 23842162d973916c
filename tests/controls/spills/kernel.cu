// Control spills: __launch_bounds__ asks for 16 resident blocks of 128 threads per SM, which caps
// the kernel at 32 registers; it needs about 100, so ptxas spills to local memory (LDL/STL).
#define CONTROL_MIN_BLOCKS 16
#include "../_common/control_base.cuh"
