// Text for cudaError_t values. Both return NULL for values that are not CUDA errors.
#ifndef PROF_TESTDATA_SIM_CUDART_ERROR_NAMES_H_
#define PROF_TESTDATA_SIM_CUDART_ERROR_NAMES_H_

#include <driver_types.h>

namespace sim {

const char* ErrorName(cudaError_t error);
const char* ErrorDescriptionText(cudaError_t error);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_ERROR_NAMES_H_
