// nvbench-style blocking kernel: holds a stream until the host releases it, so that the timed
// calls are all enqueued before the GPU reaches them and host launch cost stays out of the
// timed window. Epochs make a release unambiguous (a late-polling hold can never miss one), and
// a hold that times out records its epoch, so the host knows which samples waited on it.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int kSlots = 256;

struct Blocker {
  int64_t* host;    // [0]: released epoch; [1 + e % kSlots]: epoch e timed out
  int64_t* device;  // the same memory, mapped
  int64_t epoch;
};

__device__ __forceinline__ uint64_t global_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void hold(volatile int64_t* state, int64_t epoch, uint64_t timeout_ns) {
  const uint64_t start = global_ns();
  while (state[0] < epoch) {
    if (global_ns() - start > timeout_ns) {
      state[1 + epoch % kSlots] = epoch;
      return;
    }
    __nanosleep(500);
  }
}

}  // namespace

extern "C" {

void* blocker_create() {
  auto* b = new Blocker{nullptr, nullptr, 0};
  if (cudaHostAlloc(reinterpret_cast<void**>(&b->host), (1 + kSlots) * sizeof(int64_t), cudaHostAllocMapped) !=
          cudaSuccess ||
      cudaHostGetDevicePointer(reinterpret_cast<void**>(&b->device), b->host, 0) != cudaSuccess) {
    delete b;
    return nullptr;
  }
  for (int i = 0; i <= kSlots; ++i) b->host[i] = -1;
  b->host[0] = 0;
  return b;
}

// Enqueues a hold on `stream`; returns its epoch (negative: the launch failed).
int64_t blocker_hold(void* handle, uint64_t timeout_ns, cudaStream_t stream) {
  auto* b = static_cast<Blocker*>(handle);
  const int64_t epoch = ++b->epoch;
  hold<<<1, 1, 0, stream>>>(b->device, epoch, timeout_ns);
  return cudaGetLastError() == cudaSuccess ? epoch : -1;
}

void blocker_release(void* handle, int64_t epoch) {
  auto* b = static_cast<Blocker*>(handle);
  __atomic_store_n(&b->host[0], epoch, __ATOMIC_SEQ_CST);
}

// 1 when the hold of `epoch` timed out (read after the stream has passed it).
int blocker_timed_out(void* handle, int64_t epoch) {
  auto* b = static_cast<Blocker*>(handle);
  return __atomic_load_n(&b->host[1 + epoch % kSlots], __ATOMIC_SEQ_CST) == epoch;
}

}  // extern "C"
