// Control l2_persist: a correct attention call that also asks the L2 to keep K resident. On its
// first call it reserves the largest set-aside for persisting accesses the device allows
// (cudaLimitPersistingL2CacheSize); on every call it sets an access-policy window over K on the
// caller's stream (hit ratio 1, persisting), and restores neither. The values are the base
// kernel's, so every value check passes. In the performance gate K would survive the L2 flush
// before each timed call, and the set-aside is L2 that every other kernel loses. While the
// stream is being captured it changes nothing.
#define CONTROL_CUSTOM_ENTRY
#include <algorithm>

#include "../_common/control_base.cuh"

namespace {

void keep_k_in_l2(const AttnParams& p, cudaStream_t stream) {
  static const int max_window = [] {
    int dev = 0, set_aside = 0, window = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&set_aside, cudaDevAttrMaxPersistingL2CacheSize, dev);
    cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, dev);
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, size_t(set_aside));
    return window;
  }();
  // K from its first row to the end of its last (any layout the ABI allows).
  const int64_t last = int64_t(p.B - 1) * p.k_stride_b + int64_t(p.H - 1) * p.k_stride_h +
                       int64_t(p.S_k - 1) * p.k_stride_s + p.D;
  cudaStreamAttrValue attr = {};
  attr.accessPolicyWindow.base_ptr = const_cast<void*>(p.k);
  attr.accessPolicyWindow.num_bytes = size_t(std::min<int64_t>(last * 2, max_window));  // 2-byte elements
  attr.accessPolicyWindow.hitRatio = 1.0f;
  attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr);
  cudaGetLastError();  // the legacy default stream takes no window: the set-aside is still left behind
}

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  if (!control::capturing(stream)) keep_k_in_l2(*p, stream);
  return control::launch(*p, stream);
}
