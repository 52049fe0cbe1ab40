// A library whose constructor registers its kernel, like a CUDA library a program links
// (DT_NEEDED): its constructor runs before libprof's, so the agent learns the kernel's name
// before it has read PROF_STEP_MARKER.
#include "sim/sim_ext.h"

extern "C" const void* g_early_marker_kernel = nullptr;

__attribute__((constructor)) static void RegisterEarlyKernels() {
  g_early_marker_kernel = simRegisterKernel("early_marker_kernel");
}
