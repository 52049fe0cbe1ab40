// Maps a kernel's host stub pointer (what cudaLaunchKernel receives) to its device name,
// filled by the __cudaRegisterFunction hook when a module loads (also before libprof's
// constructor: the names of DT_NEEDED libraries' kernels are kept too). Registration is
// rare and takes a mutex; the writer thread looks names up. Falls back to dladdr, then to
// the pointer value, so a launch always has a name.
//
// PROF_STEP_MARKER kernel rules: the kernels whose names match a rule's glob are kept in a
// fixed-size lock-free set that the launch path reads (IsStepMarkerKernel: wait-free, no
// lock, a few loads). It is written under the registration mutex only, both when a kernel
// is registered after the globs are set and when SetStepMarkerKernelGlobs re-scans the
// kernels registered before.
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

// True when `host_function` (or an alias of it) matches a PROF_STEP_MARKER kernel rule.
// Wait-free and safe from any thread, concurrently with registrations: a marker whose
// registration (or glob re-scan) returned before the call is always seen; a pointer that
// is not a marker never is.
bool IsStepMarkerKernel(const void* host_function);
// Sets the globs (at start-up) and marks every kernel already registered that matches.
void SetStepMarkerKernelGlobs(const std::vector<std::string>& globs);

// The set's capacity: marker kernels (and aliases) beyond it are not added, so their
// launches end no step; one warning names the first kernel left out. Matching kernels
// are few in practice (a rule names one step-ending kernel, perhaps a few variants).
constexpr int kMaxStepMarkerKernels = 1024;
int StepMarkerKernelCount();

// fork(): the prepare handler takes the registration lock, so no thread is half-way
// through changing the name tables when the address space is copied; the parent releases
// it and the child (only the forking thread exists) rebuilds it. The marker set needs no
// reset: its slots are single atomic stores, each whole or absent.
void LockKernelNamesForFork();
void UnlockKernelNamesAfterFork();
void ResetKernelNamesAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_KERNEL_NAMES_H_
