// What the simulated devices look like: an H200-like part (Hopper, sm_90, 132 SMs,
// 141 GB of HBM3e), so programs that size their launches from the properties behave.
#ifndef PROF_TESTDATA_SIM_CUDART_DEVICE_PROPERTIES_H_
#define PROF_TESTDATA_SIM_CUDART_DEVICE_PROPERTIES_H_

#include <cuda_runtime_api.h>

namespace sim {

void FillDeviceProperties(int device, cudaDeviceProp* prop);

// False for attributes the simulator does not model (the caller reports
// cudaErrorInvalidValue, as the real runtime does for unknown attributes).
bool DeviceAttribute(int device, cudaDeviceAttr attr, int* value);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_DEVICE_PROPERTIES_H_
