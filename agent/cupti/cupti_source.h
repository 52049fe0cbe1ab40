// Device activity from CUPTI, loaded at run time with dlopen (PROF_CUPTI_LIB, else next to
// the loaded libcudart, else $CUDA_HOME): kernels, memcpy, memset and synchronization
// records, and the runtime/driver API callbacks that give each call its correlation id.
#ifndef PROF_AGENT_CUPTI_CUPTI_SOURCE_H_
#define PROF_AGENT_CUPTI_CUPTI_SOURCE_H_

#include <memory>

#include "agent/control/config.h"
#include "agent/writer/device_source.h"

namespace prof {

// Never fails: CUPTI is looked for when the source is first enabled (READY), and a
// missing or busy CUPTI becomes one warning, with host tracing going on.
std::unique_ptr<DeviceActivitySource> MakeCuptiSource(const Config& config);

// At exit (before the session ends): CUDA may be torn down from here on, so a CUPTI call
// that fails now is reported as that, not as a missing driver.
void NoteProcessExiting();

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_SOURCE_H_
