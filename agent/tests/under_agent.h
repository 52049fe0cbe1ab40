// The way the agent's end-to-end tests start a program under libprof.so: preloaded, its
// files in `output`, the simulated CUPTI (testdata/sim), plus the test's own PROF_*
// variables; and the sum of a trace summary's per-name counts.
#ifndef PROF_AGENT_TESTS_UNDER_AGENT_H_
#define PROF_AGENT_TESTS_UNDER_AGENT_H_

#include <cstdint>
#include <map>
#include <string>

#include "agent/tests/program_runner.h"

namespace prof::testing {

// Whether this test runs against the simulated platform's CUDA 12 flavour: its BUILD target
// sets PROF_TEST_CUDA=12 (e2e_flavours.bzl). Else the CUDA 13 flavour.
bool Cuda12Flavour();

// The runfile of test program `path` ("testdata/workloads/train") in this test's flavour: the
// CUDA 12 build lies at "testdata/workloads/cuda12/train" (cuda12_binary), given as the real
// file's path. A missing one fails the run loudly; a CUDA 13 build is never used in its place.
std::string Program(const std::string& path);

// The simulated libcupti of this test's flavour (libcupti.so.13 or libcupti.so.12).
std::string FlavourCupti();

// `extra` overrides or adds environment variables (PROF_CUPTI_LIB too).
RunOptions UnderAgent(const std::string& output, std::map<std::string, std::string> extra = {});

uint64_t Total(const std::map<std::string, uint64_t>& counts);

}  // namespace prof::testing

#endif  // PROF_AGENT_TESTS_UNDER_AGENT_H_
