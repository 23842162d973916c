// Control memo_cache: remembers its last output and log-sum-exp for each of a few q tensors,
// keyed by the stream, the q/k/v addresses, shape, strides and mask, and a hash of every byte of
// q, k and v, computed on the device on every call. The key leaves out the softmax scale. On a
// hit it copies the remembered result into o instead of computing. Any change to the inputs,
// one row or one bit, recomputes, so it is right wherever inputs are new; a repeat of the same
// inputs (a graph replayed on unchanged inputs, a second call on the same tensors) costs a hash
// and a copy, and a call that changes only the scale gets the old scale's answer. It takes the
// remembered result only in calls captured into a CUDA graph (eager calls compute), which is where
// the performance gate looks for it.
// Each q address has its own slot (verdict, hash, memory), so calls on different inputs running
// at once on two streams do not share state: the defect is the scale, not a race. Stream-ordered
// and graph-capturable: the hash is compared on the device, never read back by the host.
#define CONTROL_CUSTOM_ENTRY
#include <cstring>
#include "../_common/result_cache.cuh"

namespace {
constexpr int kSlots = 8;
__device__ int g_hit[kSlots];                  // each slot's verdict for its call in flight
__device__ const void* g_slot_q[kSlots];       // the q address each slot serves
__device__ unsigned long long g_sum[kSlots];   // this call's hash, accumulated by hash_inputs
__device__ unsigned long long g_held[kSlots];  // the hash of the remembered result's inputs

// The attention kernel's skip: the verdict of the slot that serves this call's q.
__device__ __forceinline__ bool slot_hit(const void* q) {
  for (int i = 0; i < kSlots; ++i)
    if (g_slot_q[i] == q) return g_hit[i] != 0;
  return false;
}
}  // namespace

#define CONTROL_SKIP_BLOCK(p, b, h, q_head) slot_hit((p).q)
#include "../_common/control_base.cuh"

namespace {

__global__ void begin(int slot, const void* q) {
  g_sum[slot] = 0ull;
  g_hit[slot] = 0;
  g_slot_q[slot] = q;
}

// An order-free hash (a sum of mixed words, each mixed with its position), so the atomics leave
// it deterministic.
__device__ __forceinline__ unsigned long long mix(uint4 w, unsigned long long i) {
  unsigned long long x = ((unsigned long long)w.y << 32 | w.x) * 0x9E3779B97F4A7C15ull;
  x ^= ((unsigned long long)w.w << 32 | w.z) * 0xC2B2AE3D27D4EB4Full;
  x ^= x >> 29;
  return x * (2ull * i + 1ull);
}

__global__ void hash_inputs(int slot, const uint4* q, const uint4* k, const uint4* v, int64_t n_q, int64_t n_kv) {
  unsigned long long acc = 0ull;
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n_q + 2 * n_kv; i += step) {
    const uint4 w = i < n_q ? q[i] : i < n_q + n_kv ? k[i - n_q] : v[i - n_q - n_kv];
    acc += mix(w, (unsigned long long)i);
  }
  for (int o = 16; o > 0; o /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0) atomicAdd(&g_sum[slot], acc);
}

// One thread. keyed: the host found the same stream, addresses, shape, strides and mask as the
// slot's remembered result, so only the hash can still tell the calls apart.
__global__ void decide(int slot, int keyed) {
  g_hit[slot] = keyed && g_sum[slot] == g_held[slot];
  g_held[slot] = g_sum[slot];
}

struct Key {
  cudaStream_t stream;
  const void *q, *k, *v;
  int32_t B, H, S_q, S_k, D, causal, dtype, has_lse;
};

struct Memory {
  Key key;
  void* data = nullptr;  // o's bytes, then lse's floats when the key has lse
  size_t capacity = 0;
  bool valid = false;
  bool used = false;     // serves key.q
};
Memory g_memory[kSlots];
int g_next_slot = 0;

Key key_of(const AttnParams& p, cudaStream_t stream) {
  Key key;
  std::memset(&key, 0, sizeof(key));  // padding too, so memcmp compares like with like
  key.stream = stream;
  key.q = p.q, key.k = p.k, key.v = p.v;
  key.B = p.B, key.H = p.H, key.S_q = p.S_q, key.S_k = p.S_k, key.D = p.D;
  key.causal = p.causal, key.dtype = p.dtype, key.has_lse = p.lse != nullptr;
  return key;
}

// The slot serving this q, or a new one (round robin) that it takes over.
int slot_for(const void* q) {
  for (int i = 0; i < kSlots; ++i)
    if (g_memory[i].used && g_memory[i].key.q == q) return i;
  const int s = g_next_slot;
  g_next_slot = (g_next_slot + 1) % kSlots;
  g_memory[s].used = true;
  g_memory[s].valid = false;
  return s;
}

int* verdict_of(int slot) {
  int* base = nullptr;
  cudaGetSymbolAddress(reinterpret_cast<void**>(&base), g_hit);
  return base + slot;
}

// Packed [B, H, S, D]: the only layout it remembers (the key then fixes every stride too).
bool packed(int64_t sb, int64_t sh, int64_t ss, const AttnParams& p, int S) {
  return ss == p.D && sh == int64_t(S) * p.D && sb == int64_t(p.H) * S * p.D;
}

bool all_packed(const AttnParams& p) {
  return packed(p.q_stride_b, p.q_stride_h, p.q_stride_s, p, p.S_q) &&
         packed(p.k_stride_b, p.k_stride_h, p.k_stride_s, p, p.S_k) &&
         packed(p.v_stride_b, p.v_stride_h, p.v_stride_s, p, p.S_k) &&
         packed(p.o_stride_b, p.o_stride_h, p.o_stride_s, p, p.S_q);
}

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  const int slot = slot_for(p->q);
  Memory& m = g_memory[slot];
  begin<<<1, 1, 0, stream>>>(slot, p->q);  // verdict 0 until decided
  int err = cudaGetLastError();
  if (err != cudaSuccess || !all_packed(*p)) return err != cudaSuccess ? err : control::launch(*p, stream);
  const int64_t rows = int64_t(p->B) * p->H * p->S_q;
  const int64_t o_bytes = rows * p->D * 2;  // fp16 and bf16 alike: a multiple of 16 bytes
  const int64_t n_lse = p->lse != nullptr ? rows : 0;
  const size_t bytes = size_t(o_bytes) + size_t(n_lse) * sizeof(float);
  const Key key = key_of(*p, stream);
  // Only calls captured into a CUDA graph may take the remembered result: eager calls, sanity's
  // among them (another scale at the same addresses), always compute. Their hash and result are
  // still kept, so a graph's calls can hit on what an eager call left.
  const bool keyed = control::capturing(stream) && m.valid && std::memcmp(&key, &m.key, sizeof(key)) == 0;
  if (!keyed && m.capacity < bytes) {
    m.valid = false;
    if (m.data != nullptr) cudaFree(m.data);
    m.data = nullptr, m.capacity = 0;
    if (cudaMalloc(&m.data, bytes) != cudaSuccess) {  // nothing remembered this time
      cudaGetLastError();
      return control::launch(*p, stream);
    }
    m.capacity = bytes;
  }
  // The host key describes the slot as it will be once this call's work has run on the stream,
  // which is when a later call on the stream compares its hash against it.
  m.valid = false;
  const int64_t n_q = rows * p->D * 2 / 16, n_kv = int64_t(p->B) * p->H * p->S_k * p->D * 2 / 16;
  hash_inputs<<<result_cache::blocks_for(n_q + 2 * n_kv), result_cache::kThreads, 0, stream>>>(
      slot, static_cast<const uint4*>(p->q), static_cast<const uint4*>(p->k), static_cast<const uint4*>(p->v), n_q,
      n_kv);
  decide<<<1, 1, 0, stream>>>(slot, keyed ? 1 : 0);
  err = cudaGetLastError();
  int* const verdict = verdict_of(slot);
  char* held_o = static_cast<char*>(m.data);
  float* held_lse = reinterpret_cast<float*>(held_o + o_bytes);
  if (err == cudaSuccess)
    err = result_cache::launch_copy(verdict, 1, p->o, held_o, o_bytes, p->lse, held_lse, n_lse, stream);
  if (err == cudaSuccess) err = control::launch(*p, stream);  // every block returns at once on a hit
  if (err == cudaSuccess)
    err = result_cache::launch_copy(verdict, 0, held_o, p->o, o_bytes, n_lse ? held_lse : nullptr, p->lse, n_lse,
                                    stream);
  if (err != cudaSuccess) return err;
  m.key = key;
  m.valid = true;
  return cudaSuccess;
}
