// Marks the functions the simulated runtime exports; everything else is hidden
// (the library is compiled with -fvisibility=hidden), like the real libcudart.
#ifndef PROF_TESTDATA_SIM_CUDART_EXPORT_H_
#define PROF_TESTDATA_SIM_CUDART_EXPORT_H_

#define SIM_EXPORT extern "C" __attribute__((visibility("default")))

#endif  // PROF_TESTDATA_SIM_CUDART_EXPORT_H_
