// Control sampled_cache: remembers its last output and log-sum-exp keyed by the q/k/v addresses,
// the shape, strides, scale and mask, and a sample of the contents: the first 16 bytes (8
// elements) at the origin of each of q, k and v. On a hit it copies the remembered result into o
// instead of computing. New values written everywhere change the sample, so it recomputes; a
// change confined to one row elsewhere does not, so it returns the old answer. Unlike
// pointer_cache it survives a full refill in place, and it stays stream-ordered and graph-
// capturable: the sample is compared on the device, never read back by the host.
//
// CACHE_WHEN_WARM 1 (tests/controls/sampled_cache_when_warm) caches only for a problem called more
// than control::kHotCalls (1000) times in the process, and computes every call before that.
#ifndef CACHE_WHEN_WARM
#define CACHE_WHEN_WARM 0
#endif
#define CONTROL_CUSTOM_ENTRY
#include <cstring>
#include "../_common/result_cache.cuh"

#define CONTROL_SKIP_BLOCK(p, b, h, q_head) (control_cache_hit != 0)
#include "../_common/control_base.cuh"
#include "../_common/hot.cuh"

namespace {

__device__ uint4 g_sample[3];  // q, k, v: the first 16 bytes of each, as of the cached result

__device__ __forceinline__ bool same(uint4 a, uint4 b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
}

// One thread. keyed: the host found the same addresses, shape, strides, scale and mask as the
// cached result, so only the sample can still tell the calls apart.
__global__ void take_sample(const uint4* q, const uint4* k, const uint4* v, int keyed) {
  const uint4 sq = *q, sk = *k, sv = *v;
  const bool hit = keyed && same(sq, g_sample[0]) && same(sk, g_sample[1]) && same(sv, g_sample[2]);
  g_sample[0] = sq, g_sample[1] = sk, g_sample[2] = sv;
  control_cache_hit = hit;
}

struct Key {
  const void *q, *k, *v;
  int64_t strides[9];
  int32_t B, H, S_q, S_k, D, causal, dtype, has_lse;
  float scale;
};

struct Cache {
  Key key;
  void* data = nullptr;  // o's bytes, then lse's floats when the key has lse
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
  key.causal = p.causal, key.dtype = p.dtype, key.has_lse = p.lse != nullptr;
  key.scale = p.softmax_scale;
  return key;
}

bool o_is_packed(const AttnParams& p) {
  return p.o_stride_s == p.D && p.o_stride_h == int64_t(p.S_q) * p.D && p.o_stride_b == int64_t(p.H) * p.S_q * p.D;
}

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  if (!o_is_packed(*p) || (CACHE_WHEN_WARM && !control::hot(*p))) {  // only packed outputs are cached
    const int err = result_cache::clear(result_cache::global_verdict(), stream);
    return err != cudaSuccess ? err : control::launch(*p, stream);
  }
  const int64_t rows = int64_t(p->B) * p->H * p->S_q;
  const int64_t o_bytes = rows * p->D * 2;  // fp16 and bf16 alike
  const int64_t n_lse = p->lse != nullptr ? rows : 0;
  const size_t bytes = size_t(o_bytes) + size_t(n_lse) * sizeof(float);
  const Key key = key_of(*p);
  const bool keyed = g_cache.valid && std::memcmp(&key, &g_cache.key, sizeof(key)) == 0;
  if (!keyed && g_cache.capacity < bytes) {
    g_cache.valid = false;
    if (g_cache.data != nullptr) cudaFree(g_cache.data);
    g_cache.data = nullptr, g_cache.capacity = 0;
    if (cudaMalloc(&g_cache.data, bytes) != cudaSuccess) {  // no cache this time
      cudaGetLastError();
      const int err = result_cache::clear(result_cache::global_verdict(), stream);
      return err != cudaSuccess ? err : control::launch(*p, stream);
    }
    g_cache.capacity = bytes;
  }
  // The host key describes the cache as it will be once this call's work has run on the stream,
  // which is when a later call on the stream compares its sample against it.
  g_cache.valid = false;
  take_sample<<<1, 1, 0, stream>>>(static_cast<const uint4*>(p->q), static_cast<const uint4*>(p->k),
                                   static_cast<const uint4*>(p->v), keyed ? 1 : 0);
  int err = cudaGetLastError();
  char* cached_o = static_cast<char*>(g_cache.data);
  float* cached_lse = reinterpret_cast<float*>(cached_o + o_bytes);
  if (err == cudaSuccess)
    err = result_cache::launch_copy(result_cache::global_verdict(), 1, p->o, cached_o, o_bytes, p->lse, cached_lse,
                                    n_lse, stream);
  if (err == cudaSuccess) err = control::launch(*p, stream);  // every block returns at once on a hit
  if (err == cudaSuccess)
    err = result_cache::launch_copy(result_cache::global_verdict(), 0, cached_o, p->o, o_bytes,
                                    n_lse ? cached_lse : nullptr, p->lse, n_lse, stream);
  if (err != cudaSuccess) return err;
  g_cache.key = key;
  g_cache.valid = true;
  return cudaSuccess;
}
