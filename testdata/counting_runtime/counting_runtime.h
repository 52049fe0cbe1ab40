// The counters of one copy of the counting runtime (counting_runtime.cc). A program reads
// a copy's counters through that copy's own handle (dlopen + dlsym(handle, ...)), which no
// interposer can redirect: so each copy tells exactly which calls reached it.
#ifndef PROF_TESTDATA_COUNTING_RUNTIME_COUNTING_RUNTIME_H_
#define PROF_TESTDATA_COUNTING_RUNTIME_COUNTING_RUNTIME_H_

extern "C" {

struct CountingRuntimeCounts {
  int registrations;     // __cudaRegisterFunction
  int launches;          // cudaLaunchKernel of a kernel registered with this copy
  int foreign_launches;  // cudaLaunchKernel of a kernel this copy never registered
  int synchronizes;      // cudaDeviceSynchronize
  int mallocs;           // cudaMalloc
  int frees;             // cudaFree
  int device_queries;    // cudaGetDevice
  int all_reduces;       // ncclAllReduce
};

// Exported by every copy under this name: look it up through the copy's handle.
using CountingRuntimeCountsFunction = const CountingRuntimeCounts* (*)();
#define COUNTING_RUNTIME_COUNTS_SYMBOL "countingRuntimeCounts"
}

#endif  // PROF_TESTDATA_COUNTING_RUNTIME_COUNTING_RUNTIME_H_
