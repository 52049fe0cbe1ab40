// The builder's first-use work for names, out of its per-event path (model_builder.cc):
// each runs once per distinct id (a file string, a call stack, a kernel configuration, an
// operator name, a copy's kinds), its result cached by the caller.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/model/kernel_names.h"
#include "analyzer/model/model_builder.h"
#include "analyzer/model/nvtx_operator_name.h"

namespace prof::analyzer {
namespace {

// Every frame, innermost first: the agent's symbol where it resolved one, else the address.
// The whole stack is data; only the text renderer shortens it.
std::string FormatCallStack(const std::vector<uint64_t>& frames,
                            const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < frames.size(); ++i) {
    const bool named = i < names.size() && !names[i].empty();
    absl::StrAppend(&text, i ? " < " : "", named ? names[i] : absl::StrFormat("0x%x", frames[i]));
  }
  return text;
}

}  // namespace

NameId ModelBuilder::ResolveName(StringId file_id) {
  return model_.names.Intern(dictionary_->String(file_id));
}

NameId ModelBuilder::ResolveStackName(CallStackId id) {
  const std::vector<uint64_t>* frames = dictionary_->CallStack(id);
  return frames ? model_.names.Intern(FormatCallStack(*frames, dictionary_->CallStackNames(id)))
                : 0;
}

NameId ModelBuilder::MemcpyNameId(schema::CopyKind kind, schema::MemoryKind source,
                                  schema::MemoryKind destination) {
  const uint32_t k = kind, s = source, d = destination;
  if (k >= 8 || s >= 8 || d >= 8) return model_.names.Intern(MemcpyName(kind, source, destination));
  NameId& name = memcpy_names_[(k * 8 + s) * 8 + d];
  if (name == 0) name = model_.names.Intern(MemcpyName(kind, source, destination));
  return name;
}

void ModelBuilder::SplitOperatorName(HostRange* range, OperatorNameParts* parts) {
  const absl::string_view text = model_.names.Get(range->name);
  const NvtxOperatorName split = SplitNvtxOperatorName(text);
  *parts = {range->name, {}, kUnresolved};
  if (split.name.size() == text.size()) return;
  // `split` views the pool's string, which interning keeps alive. The shapes first, then
  // the name, the order the pool's ids have always come in.
  parts->shapes = split.shapes;
  if (range->shapes == 0 && !split.shapes.empty())
    range->shapes = parts->shapes_id = model_.names.Intern(split.shapes);
  range->name = parts->name = model_.names.Intern(split.name);
}

void ModelBuilder::ResolveKernelName(KernelConfigId config, KernelName* cached) {
  const KernelConfigValue* value = dictionary_->KernelConfig(config);
  const absl::string_view raw =
      value ? dictionary_->String(value->name) : absl::string_view("<unknown kernel>");
  cached->name = model_.names.Intern(DemangleKernelName(raw));
  cached->nccl = IsNcclKernelName(raw) || IsNcclKernelName(model_.names.Get(cached->name));
  if (value) {
    KernelLaunch launch;
    launch.name = cached->name;
    std::copy(value->grid, value->grid + 3, launch.grid);
    std::copy(value->block, value->block + 3, launch.block);
    launch.registers_per_thread = value->registers_per_thread;
    launch.static_shared_memory = value->static_shared_memory;
    launch.dynamic_shared_memory = value->dynamic_shared_memory;
    cached->launch = static_cast<int32_t>(model_.kernel_launches.size());
    model_.kernel_launches.push_back(launch);
  }
}

}  // namespace prof::analyzer
