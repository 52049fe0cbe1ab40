// Settings read once from SIM_* environment variables (see testdata/sim/README.md).
#ifndef PROF_TESTDATA_SIM_CUDART_CONFIG_H_
#define PROF_TESTDATA_SIM_CUDART_CONFIG_H_

#include <cstdint>

namespace sim {

struct RuntimeConfig {
  uint64_t seed = 0;        // SIM_SEED
  double time_scale = 1.0;  // SIM_TIME_SCALE, multiplies every modeled duration
  int device_count = 8;     // SIM_DEVICE_COUNT (0..64)
};

// Parsed on first use; later changes to the environment are ignored.
const RuntimeConfig& Config();

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_CONFIG_H_
