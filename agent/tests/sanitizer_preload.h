// Test support for sanitizer builds (bazel test --config=asan or --config=tsan, .bazelrc).
// There every program a test runs, and libprof.so, are instrumented, and the sanitizer's
// runtime must be the first object the dynamic linker loads: ASan checks this at start and
// stops the program otherwise. LD_PRELOAD=libprof.so would put libprof.so first, so tests
// preload the runtime this test process itself runs with ahead of libprof.so. In a normal
// build no runtime is loaded and the list is returned unchanged.
#ifndef PROF_AGENT_TESTS_SANITIZER_PRELOAD_H_
#define PROF_AGENT_TESTS_SANITIZER_PRELOAD_H_

#include <string>

namespace prof::testing {

// True when built under --config=asan or --config=tsan (gcc's macro; .bazelrc's for TSan),
// where programs and the agent's writer run several times slower.
#if defined(__SANITIZE_ADDRESS__) || defined(PROF_THREAD_SANITIZER)
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif

// True under --config=tsan only.
#if defined(PROF_THREAD_SANITIZER)
inline constexpr bool kThreadSanitizerBuild = true;
#else
inline constexpr bool kThreadSanitizerBuild = false;
#endif

// `preload` (an LD_PRELOAD value) with the sanitizer runtime in front when one is loaded here.
std::string WithSanitizerRuntime(const std::string& preload);

}  // namespace prof::testing

#endif  // PROF_AGENT_TESTS_SANITIZER_PRELOAD_H_
