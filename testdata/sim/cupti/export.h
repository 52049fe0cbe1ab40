// Marks the functions the simulated CUPTI exports; everything else is hidden.
#ifndef PROF_TESTDATA_SIM_CUPTI_EXPORT_H_
#define PROF_TESTDATA_SIM_CUPTI_EXPORT_H_

#define SIM_CUPTI_EXPORT extern "C" __attribute__((visibility("default")))

#endif  // PROF_TESTDATA_SIM_CUPTI_EXPORT_H_
