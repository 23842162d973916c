// A producer for the programmatic-dependent-launch check: it lets the next kernel on the stream
// start at once (every CTA executes griddepcontrol.launch_dependents first), spins, and only then
// writes that kernel's inputs. A kernel launched with programmatic stream serialisation must
// execute griddepcontrol.wait before it reads anything a preceding grid writes; one that reads
// its inputs first (or never waits) computes on the old values, and its output shows it.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int kBuffers = 3;

struct Copies {
  const uint4* src[kBuffers];
  uint4* dst[kBuffers];
  uint64_t n16[kBuffers];  // 16-byte words per buffer
};

__device__ __forceinline__ uint64_t global_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void trigger_spin_copy(Copies c, uint64_t spin_ns) {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  const uint64_t start = global_ns();
  while (global_ns() - start < spin_ns) __nanosleep(1000);
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (int b = 0; b < kBuffers; ++b)
    for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < c.n16[b]; i += stride)
      c.dst[b][i] = c.src[b][i];
}

}  // namespace

extern "C" {

// Enqueues the producer on `stream`: after spin_ns, copies nbytes[i] (a multiple of 16, 16-byte
// aligned pointers) from src[i] to dst[i] for i < 3. `blocks` CTAs of 256 threads: few enough
// that the dependent kernel finds free SMs. Returns a cudaError_t.
int producer_launch(const void* const* src, void* const* dst, const uint64_t* nbytes, uint64_t spin_ns, int blocks,
                    cudaStream_t stream) {
  Copies c{};
  for (int b = 0; b < kBuffers; ++b) {
    if (nbytes[b] % 16 || reinterpret_cast<uintptr_t>(src[b]) % 16 || reinterpret_cast<uintptr_t>(dst[b]) % 16)
      return cudaErrorInvalidValue;
    c.src[b] = static_cast<const uint4*>(src[b]);
    c.dst[b] = static_cast<uint4*>(dst[b]);
    c.n16[b] = nbytes[b] / 16;
  }
  trigger_spin_copy<<<blocks, 256, 0, stream>>>(c, spin_ns);
  return cudaGetLastError();
}

}  // extern "C"
