// For operator_detail_e2e_test: a C-API user like the Python helper with PROF_SHAPES=1.
// Each of --steps steps (default 4) runs
//   aten::linear (shapes, dtypes, source) ⊃ aten::addmm (shapes, no dtypes) ⊃ one kernel,
//   then an emit_nvtx-style NVTX range "aten::mm, seq = N, op_id = N, sizes = [...]"
//   around one kernel, and ends with prof_step(32).
// Without the agent (no prof_operator_push_detail) it prints so and exits 1.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <sim/sim_ext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

template <typename Function>
Function CApi(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_DEFAULT, name));
}

void Launch(const void* kernel) {
  if (cudaLaunchKernel(kernel, dim3(4), dim3(128), nullptr, 0, nullptr) != cudaSuccess) {
    std::printf("cudaLaunchKernel failed\n");
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 4;
  if (argc == 3 && std::strcmp(argv[1], "--steps") == 0) steps = std::atoi(argv[2]);
  auto push_detail = CApi<void (*)(const char*, const char*, const char*, const char*)>(
      "prof_operator_push_detail");
  auto pop = CApi<void (*)()>("prof_operator_pop");
  auto step = CApi<void (*)(int64_t)>("prof_step");
  if (!push_detail || !pop || !step) {
    std::printf("the agent's C API is absent\n");
    return 1;
  }
  const void* gemm = simRegisterKernel("_Z4gemmPKfS0_Pf");
  for (int i = 0; i < steps; ++i) {
    push_detail("aten::linear", "[[32, 64], [128, 64], [128]]", "[float, float, float]",
                "model.py:12");
    push_detail("aten::addmm", "[[128], [32, 64], [64, 128]]", nullptr, "");
    Launch(gemm);
    pop();
    pop();
    const std::string nvtx_name = "aten::mm, seq = " + std::to_string(i) +
                                  ", op_id = " + std::to_string(100 + i) +
                                  ", sizes = [[8, 16], [16, 4]]";
    nvtxRangePushA(nvtx_name.c_str());
    Launch(gemm);
    nvtxRangePop();
    cudaDeviceSynchronize();
    step(32);
  }
  std::printf("operator_detail_program: %d steps\n", steps);
  return 0;
}
