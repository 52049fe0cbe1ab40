#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

const char* RangeTypeName(RangeType type) {
  switch (type) {
    case RangeType::kProfileStep: return "ProfileStep";
    case RangeType::kDataloader: return "Dataloader";
    case RangeType::kForward: return "Forward";
    case RangeType::kBackward: return "Backward";
    case RangeType::kOptimization: return "Optimization";
    case RangeType::kOperator: return "Operator";
    case RangeType::kUserDefined: return "UserDefined";
    case RangeType::kNvtx: return "NvtxRange";
    case RangeType::kMark: return "Mark";
  }
  return "Unknown";
}

bool IsModelPhase(RangeType type) {
  return type == RangeType::kDataloader || type == RangeType::kForward ||
         type == RangeType::kBackward || type == RangeType::kOptimization;
}

const char* DeviceKindName(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kKernel: return "Kernel";
    case DeviceKind::kMemcpy: return "Memcpy";
    case DeviceKind::kMemset: return "Memset";
    case DeviceKind::kSynchronization: return "Synchronization";
  }
  return "Unknown";
}

}  // namespace prof::analyzer
