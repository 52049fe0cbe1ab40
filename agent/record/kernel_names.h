// Maps a kernel's host stub pointer (what cudaLaunchKernel receives) to its device name,
// filled by the __cudaRegisterFunction hook when a module loads. Registration is rare and
// takes a mutex; the writer thread looks names up. Falls back to dladdr, then to the
// pointer value, so a launch always has a name.
#ifndef PROF_AGENT_RECORD_KERNEL_NAMES_H_
#define PROF_AGENT_RECORD_KERNEL_NAMES_H_

#include <string>
#include <vector>

namespace prof {

void RegisterKernelName(const void* host_function, const char* device_name);

// `alias` (a cudaKernel_t from __cudaGetKernel) launches the same kernel as
// `host_function`.
void RegisterKernelAlias(const void* alias, const void* host_function);

// Called only from the writer thread.
std::string KernelNameOf(const void* host_function);

// True when `host_function` matches a PROF_STEP_MARKER kernel rule (decided at
// registration; the hot path checks a flat set only when such a rule exists).
bool IsStepMarkerKernel(const void* host_function);
void SetStepMarkerKernelGlobs(const std::vector<std::string>& globs);

// In a forked child: the mutex may have been held by a thread that no longer exists.
void ResetKernelNamesAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_KERNEL_NAMES_H_
