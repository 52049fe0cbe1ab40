#include "proto/file_dictionary.h"

#include <limits>

#include "absl/strings/str_format.h"

namespace prof {
namespace {

// Ids below this many plus twice the definitions seen are stored densely.
constexpr uint64_t kDenseSlack = 4096;

}  // namespace

void FileDictionary::DefineString(uint64_t id, const std::string& value) {
  ++strings_defined_;
  const uint64_t index = id - 1;  // id >= 1
  if (index >= strings_.size() && index < kDenseSlack + 2 * strings_defined_) {
    strings_.resize(index + 1);
    string_defined_.resize(index + 1, false);
  }
  if (index < strings_.size()) {
    strings_[index] = value;
    string_defined_[index] = true;
  } else {
    sparse_strings_[static_cast<StringId>(id)] = value;
  }
}

void FileDictionary::AddDefinitions(const trace::Chunk& chunk) {
  // first_string_id is untrusted: the arithmetic is 64-bit and ids past StringId's range
  // (which no reference can name) are dropped; memory grows with definitions, not ids.
  const uint64_t first = chunk.first_string_id();
  for (int i = 0; i < chunk.strings_size(); ++i) {
    const uint64_t id = first + static_cast<uint64_t>(i);
    if (first == 0 || id > std::numeric_limits<StringId>::max()) {
      ++dropped_definitions_;
      continue;
    }
    DefineString(id, chunk.strings(i));
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
    communicators_[communicator.id()] = CommunicatorValue{
        communicator.comm_hash(), communicator.rank(),          communicator.rank_count(),
        communicator.device(),    communicator.init_start_ns(), communicator.init_duration_ns()};
  }
  for (const trace::CallStack& stack : chunk.call_stacks()) {
    call_stacks_[stack.id()].assign(stack.frame_addresses().begin(), stack.frame_addresses().end());
    call_stack_names_[stack.id()].assign(stack.frame_name_ids().begin(),
                                         stack.frame_name_ids().end());
  }
}

absl::string_view FileDictionary::String(StringId id) {
  if (id == 0) return "";
  if (id <= strings_.size() && string_defined_[id - 1]) return strings_[id - 1];
  if (!sparse_strings_.empty()) {
    auto found = sparse_strings_.find(id);
    if (found != sparse_strings_.end()) return found->second;
  }
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
