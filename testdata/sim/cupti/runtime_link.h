// Attaches this CUPTI to the simulated runtime. The runtime is found at run time with
// dlsym (never linked), so a program that never loads CUPTI pays nothing, and CUPTI loaded
// before the runtime attaches on a later call.
#ifndef PROF_TESTDATA_SIM_CUPTI_RUNTIME_LINK_H_
#define PROF_TESTDATA_SIM_CUPTI_RUNTIME_LINK_H_

#include <cstdint>

namespace simcupti {

// Installs the activity sink in the runtime if it is loaded. Cheap once attached.
bool EnsureAttachedToRuntime();

// What the runtime knows about a stream handle; false if unknown (or no runtime).
bool LookUpStream(const void* stream, uint32_t* stream_id, uint32_t* device, uint32_t* context_id);

}  // namespace simcupti

#endif  // PROF_TESTDATA_SIM_CUPTI_RUNTIME_LINK_H_
