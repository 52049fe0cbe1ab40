// Turns what the simulated runtime reports into CUPTI activity records, in the exact
// layouts of the CUDA the library is built as (record_flavour.h), and queues them for delivery.
#ifndef PROF_TESTDATA_SIM_CUPTI_RECORD_BUILDER_H_
#define PROF_TESTDATA_SIM_CUPTI_RECORD_BUILDER_H_

#include "testdata/sim/bridge/sim_bridge.h"

namespace simcupti {

// Each queues its record(s) only when the matching kind is enabled.
void RecordApiCall(const SimApiCallEvent& event);
void RecordDeviceWork(const SimDeviceWork& work);
void RecordSync(const SimSyncEvent& event);

}  // namespace simcupti

#endif  // PROF_TESTDATA_SIM_CUPTI_RECORD_BUILDER_H_
