// ThreadSanitizer suppression for third-party code only, linked into the test programs that
// call NVTX from several threads (testdata/workloads). NVTX v3's header-only
// nvtx*_impl_init_v3 (from the CUDA toolkit, nvtx3/nvtxDetail/nvtxInit.h) checks its init
// state with a plain read before its atomic compare-and-swap: a benign double-checked
// pattern of NVIDIA's code, not of ours (the agent's injection side is instrumented and
// not suppressed). TSan reads this hook from the program at start (--config=tsan, .bazelrc);
// in other builds nothing calls it.
extern "C" const char* __tsan_default_suppressions() { return "race:nvtx*_impl_init_v3\n"; }
