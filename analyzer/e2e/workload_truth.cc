#include "analyzer/e2e/workload_truth.h"

#include <fstream>
#include <iterator>

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace prof::analyzer::e2e {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

const Value* Field(const Struct& object, const std::string& key) {
  auto it = object.fields().find(key);
  return it == object.fields().end() ? nullptr : &it->second;
}

// Truth numbers are integers below 2^53, so the double JSON value is exact.
uint64_t Integer(const Struct& object, const std::string& key) {
  const Value* value = Field(object, key);
  return value && value->has_number_value() ? static_cast<uint64_t>(value->number_value()) : 0;
}

const Struct* Object(const Struct& object, const std::string& key) {
  const Value* value = Field(object, key);
  return value && value->has_struct_value() ? &value->struct_value() : nullptr;
}

// {"by_kind": {"HtoD": {"count": .., "bytes": ..}}} -> name -> CountAndBytes.
std::map<std::string, CountAndBytes> CountsAndBytes(const Struct* parent, const std::string& key) {
  std::map<std::string, CountAndBytes> result;
  const Struct* map = parent ? Object(*parent, key) : nullptr;
  if (!map) return result;
  for (const auto& [name, entry] : map->fields()) {
    if (!entry.has_struct_value()) continue;
    result[name] = {Integer(entry.struct_value(), "count"), Integer(entry.struct_value(), "bytes")};
  }
  return result;
}

// {"by_name": {"Forward": 20}} -> name -> count.
std::map<std::string, uint64_t> NameCounts(const Struct* parent) {
  std::map<std::string, uint64_t> result;
  const Struct* map = parent ? Object(*parent, "by_name") : nullptr;
  if (!map) return result;
  for (const auto& [name, entry] : map->fields())
    result[name] = static_cast<uint64_t>(entry.number_value());
  return result;
}

TruthSection ReadSection(const Struct& object) {
  TruthSection section;
  if (const Struct* kernels = Object(object, "kernels")) {
    section.kernel_total_ns = Integer(*kernels, "total_ns");
    if (const Struct* by_name = Object(*kernels, "by_name")) {
      for (const auto& [name, entry] : by_name->fields()) {
        if (!entry.has_struct_value()) continue;
        const Struct& kernel = entry.struct_value();
        const Value* demangled = Field(kernel, "demangled");
        section.kernels[name] = {demangled ? demangled->string_value() : name,
                                 Integer(kernel, "count"), Integer(kernel, "total_ns")};
      }
    }
  }
  section.memcpy_by_kind = CountsAndBytes(Object(object, "memcpy"), "by_kind");
  const Struct* memcpy = Object(object, "memcpy");
  if (const Struct* by_kind = memcpy ? Object(*memcpy, "by_kind") : nullptr) {
    for (const auto& [kind, entry] : by_kind->fields()) {
      if (entry.has_struct_value())
        section.memcpy_ns_by_kind[kind] = Integer(entry.struct_value(), "total_ns");
    }
  }
  if (const Struct* memset = Object(object, "memset")) {
    section.memset = {Integer(*memset, "count"), Integer(*memset, "bytes")};
    section.memset_ns = Integer(*memset, "total_ns");
  }
  section.collectives = CountsAndBytes(Object(object, "collectives"), "by_op");
  const Struct* collectives = Object(object, "collectives");
  if (const Struct* by_op = collectives ? Object(*collectives, "by_op") : nullptr) {
    for (const auto& [name, entry] : by_op->fields()) {
      if (!entry.has_struct_value()) continue;
      section.collective_kernels[name] = {Integer(entry.struct_value(), "kernel_ns"),
                                          static_cast<int>(Integer(entry.struct_value(), "ranks"))};
    }
  }
  section.nvtx_ranges = NameCounts(Object(object, "nvtx_ranges"));
  section.user_ranges = NameCounts(Object(object, "user_ranges"));
  return section;
}

}  // namespace

void TruthSection::Add(const TruthSection& other) {
  for (const auto& [name, kernel] : other.kernels) {
    KernelTruth& mine = kernels[name];
    mine.demangled = kernel.demangled;
    mine.count += kernel.count;
    mine.total_ns += kernel.total_ns;
  }
  kernel_total_ns += other.kernel_total_ns;
  for (const auto& [kind, figures] : other.memcpy_by_kind) {
    memcpy_by_kind[kind].count += figures.count;
    memcpy_by_kind[kind].bytes += figures.bytes;
  }
  for (const auto& [kind, ns] : other.memcpy_ns_by_kind) memcpy_ns_by_kind[kind] += ns;
  memset.count += other.memset.count;
  memset.bytes += other.memset.bytes;
  memset_ns += other.memset_ns;
  for (const auto& [op, figures] : other.collectives) {
    collectives[op].count += figures.count;
    collectives[op].bytes += figures.bytes;
  }
  for (const auto& [op, figures] : other.collective_kernels) {
    collective_kernels[op].kernel_ns += figures.kernel_ns;
    collective_kernels[op].ranks = figures.ranks;
  }
  for (const auto& [name, count] : other.nvtx_ranges) nvtx_ranges[name] += count;
  for (const auto& [name, count] : other.user_ranges) user_ranges[name] += count;
}

TruthSection WorkloadTruth::StepRange(size_t first, size_t end) const {
  TruthSection sum;
  for (size_t step = first; step < end && step < steps.size(); ++step) sum.Add(steps[step].section);
  return sum;
}

absl::StatusOr<WorkloadTruth> ReadWorkloadTruth(const std::string& path) {
  std::ifstream file(path);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (text.empty()) return absl::NotFoundError(absl::StrCat(path, ": missing or empty"));
  Struct root;
  if (!google::protobuf::util::JsonStringToMessage(text, &root).ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not JSON"));
  }
  const Value* schema = Field(root, "schema");
  if (!schema || schema->string_value() != "prof-sim-truth/1") {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a prof-sim-truth/1 file"));
  }
  WorkloadTruth truth;
  truth.program = Field(root, "program") ? Field(root, "program")->string_value() : "";
  truth.rank = static_cast<int>(Integer(root, "rank"));
  truth.world_size = static_cast<int>(Integer(root, "world_size"));
  if (const Struct* totals = Object(root, "totals")) truth.totals = ReadSection(*totals);
  if (const Struct* outside = Object(root, "outside_steps"))
    truth.outside_steps = ReadSection(*outside);
  const Value* steps = Field(root, "steps");
  if (steps && steps->has_list_value()) {
    for (const Value& entry : steps->list_value().values()) {
      if (!entry.has_struct_value()) continue;
      const Struct& step = entry.struct_value();
      truth.steps.push_back({static_cast<int64_t>(Integer(step, "num_samples")),
                             Integer(step, "start_ns"), Integer(step, "end_ns"),
                             ReadSection(step)});
    }
  }
  return truth;
}

}  // namespace prof::analyzer::e2e
