// Control zero_keys_as_padding: takes a key whose row of K is exactly zero for padding and masks it
// (its logit -inf), where the logit of a zero key is 0 and its V row counts like any other. Right
// on every input with no zero key row, which no distribution drew before zero_rows (the
// correctness gate's values, phases/floor.yaml); sanity's all-zero queries zero Q, not K.
#include <cstdint>

template <typename F>
__device__ __forceinline__ bool control_nonzero_row(const F* row, int d) {
  bool any = false;
  for (int i = 0; i < d; ++i) any |= row[i] != F(0);
  return any;
}
// k_row holds D floats; D is the kernel's template argument at the point of use.
#define CONTROL_KEY_VISIBLE(visible, k_row) ((visible) && control_nonzero_row(k_row, D))
#include "../_common/control_base.cuh"
