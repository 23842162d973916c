// Control long_row_sum_fp16: for rows of more than 3000 keys the softmax row sum is kept in fp16
// (a "long-sequence" path). Short rows are exact; the sum over thousands of keys loses bits.
#include <cuda_fp16.h>
#define CONTROL_LSUM_STORE(p, x) ((p).S_k > 3000 ? __half2float(__float2half(x)) : (x))
#include "../_common/control_base.cuh"
