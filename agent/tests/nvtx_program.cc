// Exercises NVTX v3 the way libraries do, for the agent's NVTX tests: domains, registered
// strings (many, so the agent's tables grow), push/pop, start/end ranges ended on another
// thread, marks, a named OS thread, and steps marked by ranges named ProfileStep.
#include <nvtx3/nvToolsExt.h>

#include <string>
#include <thread>
#include <vector>

int main() {
  nvtxDomainHandle_t domain = nvtxDomainCreateA("my_library");
  std::vector<nvtxStringHandle_t> names;
  for (int i = 0; i < 200; ++i) {
    names.push_back(nvtxDomainRegisterStringA(domain, ("op_" + std::to_string(i)).c_str()));
  }
  nvtxNameOsThreadA(0, "nvtx_main");
  for (int step = 0; step < 3; ++step) {
    nvtxRangePushA("ProfileStep");  // the step boundary; not recorded as a range
    nvtxRangePushA("Forward");
    nvtxEventAttributes_t attributes = {};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    attributes.message.registered = names[step * 50];
    nvtxDomainRangePushEx(domain, &attributes);
    nvtxDomainRangePop(domain);
    nvtxMarkA("checkpoint");
    nvtxRangePop();
    const nvtxRangeId_t id = nvtxRangeStartA("async_copy");
    std::thread([id] { nvtxRangeEnd(id); }).join();  // ends on another thread
    nvtxRangePop();
  }
  return 0;
}
