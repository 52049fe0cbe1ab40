#include "proto/file_dictionary.h"

#include "absl/strings/str_format.h"

namespace prof {
namespace {

// Bounds the dictionary against a corrupt first_string_id that passed the checksum.
constexpr uint64_t kMaxStringId = 1u << 28;

}  // namespace

void FileDictionary::AddDefinitions(const trace::Chunk& chunk) {
  const uint64_t first = chunk.first_string_id();
  if (chunk.strings_size() > 0 && first >= 1 && first + chunk.strings_size() <= kMaxStringId) {
    const size_t end = first - 1 + chunk.strings_size();
    if (strings_.size() < end) {
      strings_.resize(end);
      string_defined_.resize(end, false);
    }
    for (int i = 0; i < chunk.strings_size(); ++i) {
      strings_[first - 1 + i] = chunk.strings(i);
      string_defined_[first - 1 + i] = true;
    }
  }
  for (const trace::KernelConfig& config : chunk.kernel_configs()) {
    KernelConfigValue value;
    value.name = config.name_id();
    value.grid[0] = config.grid_x();
    value.grid[1] = config.grid_y();
    value.grid[2] = config.grid_z();
    value.block[0] = config.block_x();
    value.block[1] = config.block_y();
    value.block[2] = config.block_z();
    value.static_shared_memory = config.static_shared_memory();
    value.dynamic_shared_memory = config.dynamic_shared_memory();
    value.registers_per_thread = config.registers_per_thread();
    kernel_configs_[config.id()] = value;
  }
  for (const trace::NcclCommunicator& communicator : chunk.nccl_communicators()) {
    communicators_[communicator.id()] =
        CommunicatorValue{communicator.comm_hash(),     communicator.rank(),
                          communicator.rank_count(),    communicator.device(),
                          communicator.init_start_ns(), communicator.init_duration_ns()};
  }
  for (const trace::CallStack& stack : chunk.call_stacks()) {
    call_stacks_[stack.id()].assign(stack.frame_addresses().begin(),
                                    stack.frame_addresses().end());
    call_stack_names_[stack.id()].assign(stack.frame_name_ids().begin(),
                                         stack.frame_name_ids().end());
  }
}

absl::string_view FileDictionary::String(StringId id) {
  if (id == 0) return "";
  if (id <= strings_.size() && string_defined_[id - 1]) return strings_[id - 1];
  ++unknown_references_;
  auto [it, inserted] = placeholders_.try_emplace(id);
  if (inserted) it->second = absl::StrFormat("<unknown string %d>", id);
  return it->second;
}

const KernelConfigValue* FileDictionary::KernelConfig(KernelConfigId id) {
  auto it = kernel_configs_.find(id);
  if (it != kernel_configs_.end()) return &it->second;
  ++unknown_references_;
  return nullptr;
}

const CommunicatorValue* FileDictionary::Communicator(CommunicatorId id) {
  auto it = communicators_.find(id);
  if (it != communicators_.end()) return &it->second;
  ++unknown_references_;
  return nullptr;
}

const std::vector<uint64_t>* FileDictionary::CallStack(CallStackId id) {
  auto it = call_stacks_.find(id);
  if (it != call_stacks_.end()) return &it->second;
  ++unknown_references_;
  return nullptr;
}

std::vector<std::string> FileDictionary::CallStackNames(CallStackId id) {
  std::vector<std::string> names;
  auto it = call_stack_names_.find(id);
  if (it == call_stack_names_.end()) return names;
  for (StringId name : it->second) names.emplace_back(String(name));
  return names;
}

}  // namespace prof
