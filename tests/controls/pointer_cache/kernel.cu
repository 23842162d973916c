// Control pointer_cache: remembers its last output keyed by the q/k/v addresses and the problem's
// shape; on a hit it copies the remembered result into o (cudaMemcpyAsync on the caller's stream)
// instead of computing, so new values written at the same addresses get a stale answer.
#define CONTROL_CUSTOM_ENTRY
#include <cstring>
#include "../_common/control_base.cuh"

namespace {

struct Key {
  const void *q, *k, *v;
  int64_t strides[9];
  int32_t B, H, S_q, S_k, D, causal, dtype;
  float scale;
};

struct Cache {
  Key key;
  void* data = nullptr;
  size_t capacity = 0;
  bool valid = false;
} g_cache;

Key key_of(const AttnParams& p) {
  Key key;
  std::memset(&key, 0, sizeof(key));  // padding too, so memcmp compares like with like
  key.q = p.q, key.k = p.k, key.v = p.v;
  const int64_t strides[9] = {p.q_stride_b, p.q_stride_h, p.q_stride_s, p.k_stride_b, p.k_stride_h,
                              p.k_stride_s, p.v_stride_b, p.v_stride_h, p.v_stride_s};
  std::memcpy(key.strides, strides, sizeof(strides));
  key.B = p.B, key.H = p.H, key.S_q = p.S_q, key.S_k = p.S_k, key.D = p.D;
  key.causal = p.causal, key.dtype = p.dtype, key.scale = p.softmax_scale;
  return key;
}

bool o_is_packed(const AttnParams& p) {
  return p.o_stride_s == p.D && p.o_stride_h == int64_t(p.S_q) * p.D && p.o_stride_b == int64_t(p.H) * p.S_q * p.D;
}

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  if (!o_is_packed(*p)) return control::launch(*p, stream);  // only packed outputs are cached
  const size_t bytes = size_t(p->B) * p->H * p->S_q * p->D * 2;
  const Key key = key_of(*p);
  if (g_cache.valid && std::memcmp(&key, &g_cache.key, sizeof(key)) == 0)
    return cudaMemcpyAsync(p->o, g_cache.data, bytes, cudaMemcpyDeviceToDevice, stream);
  int err = control::launch(*p, stream);
  if (err != cudaSuccess) return err;
  if (g_cache.capacity < bytes) {
    g_cache.valid = false;
    if (g_cache.data != nullptr) cudaFree(g_cache.data);
    g_cache.data = nullptr, g_cache.capacity = 0;
    if (cudaMalloc(&g_cache.data, bytes) != cudaSuccess) return cudaSuccess;  // no cache this time
    g_cache.capacity = bytes;
  }
  err = cudaMemcpyAsync(g_cache.data, p->o, bytes, cudaMemcpyDeviceToDevice, stream);
  g_cache.key = key;
  g_cache.valid = err == cudaSuccess;
  return err;
}
