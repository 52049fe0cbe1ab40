// Which CUPTI versions libprof reads, and which runtime each belongs to. A CUPTI works only
// with the runtime of its own CUDA major (a CUDA 12 program needs CUPTI 12.x), and it writes
// its activity records in its own version's struct layouts (record_layouts.h):
//   API version 19-28   CUDA 12.0-12.9 U1  CUpti_ActivityKernel9; Memcpy5 + Synchronization
//                                          before 12.8 (26), Memcpy6 + Synchronization2 from
//   API version 13xxyy  CUDA 13.x          CUpti_ActivityKernel10 (13.0, 13.1), Memcpy6,
//                                          Synchronization2 (the headers libprof is built with)
// Memset4 and API records are the same struct in both. cupti_version.h lists the versions;
// 18 is CUDA 11.8's, whose records libprof was never checked against.
//
// Thread safety: pure functions.
#ifndef PROF_AGENT_CUPTI_CUPTI_VERSIONS_H_
#define PROF_AGENT_CUPTI_CUPTI_VERSIONS_H_

#include <cstdint>
#include <string>

namespace prof {

// The CUDA major of a CUPTI API version (12 or 13), 0 when libprof does not read it.
int CudaMajorOfCuptiVersion(uint32_t version);

// The CUDA major in a runtime's or CUPTI's file name ("libcudart.so.12" and
// "libcudart.so.12.4.127" are 12, torch's "libcudart-9335f6a2.so.12" too); 0 when the name
// has none ("libcudart.so").
int CudaMajorOfLibraryName(const std::string& path);

// "" when the CUPTI at `cupti_path` with API `version` can record the program whose runtime
// is `runtime_path` ("" when no shared runtime is loaded: a static runtime cannot be asked);
// else one line naming both files and what is wrong.
std::string CuptiVersionProblem(uint32_t version, const std::string& cupti_path,
                                const std::string& runtime_path);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CUPTI_VERSIONS_H_
