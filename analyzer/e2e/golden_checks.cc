#include "analyzer/e2e/golden_checks.h"

#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

namespace prof::analyzer::e2e {
namespace {

std::map<std::string, CountAndTime> TruthByDemangledName(const TruthSection& truth) {
  std::map<std::string, CountAndTime> kernels;
  for (const auto& [mangled, kernel] : truth.kernels) {
    if (kernel.count == 0) continue;
    CountAndTime& entry = kernels[kernel.demangled];
    entry.count += kernel.count;
    entry.total_ns += kernel.total_ns;
  }
  return kernels;
}

// The truth grouped the way the Kernel Summary groups rows, with each row's share.
std::map<std::string, CountAndTime> TruthByRowName(const TruthSection& truth) {
  std::map<std::string, CountAndTime> rows;
  for (const auto& [demangled, kernel] : TruthByDemangledName(truth)) {
    CountAndTime& row = rows[KernelRowName(demangled)];
    row.count += kernel.count;
    row.total_ns += kernel.total_ns;
  }
  for (auto& [name, row] : rows)
    row.ratio = static_cast<double>(row.total_ns) / truth.kernel_total_ns;
  return rows;
}

}  // namespace

bool WithinOneBasisPoint(double a, double b) {
  return std::fabs(a - b) <= 1e-4 * std::max(std::fabs(a), std::fabs(b));
}

void CheckKernels(const ProcessFigures& analyzed, const TruthSection& truth) {
  REQUIRE(truth.kernel_total_ns > 0);
  const std::map<std::string, CountAndTime> by_name = TruthByDemangledName(truth);
  REQUIRE(analyzed.kernels.size() == by_name.size());
  for (const auto& [name, expected] : by_name) {
    INFO("kernel " << name);
    auto found = analyzed.kernels.find(name);
    REQUIRE(found != analyzed.kernels.end());
    CHECK(found->second.count == expected.count);
    CHECK(found->second.total_ns == expected.total_ns);
  }
  const std::map<std::string, CountAndTime> rows = TruthByRowName(truth);
  REQUIRE(analyzed.kernel_rows.size() == rows.size());
  for (const auto& [name, expected] : rows) {
    INFO("Kernel Summary row " << name);
    auto found = analyzed.kernel_rows.find(name);
    REQUIRE(found != analyzed.kernel_rows.end());
    CHECK(found->second.count == expected.count);
    CHECK(found->second.total_ns == expected.total_ns);
    INFO("ratio " << found->second.ratio << " expected " << expected.ratio);
    CHECK(WithinOneBasisPoint(found->second.ratio, expected.ratio));
  }
}

void CheckCopies(const ProcessFigures& analyzed, const TruthSection& truth) {
  std::map<std::string, CountAndBytes> expected;
  for (const auto& [kind, copies] : truth.memcpy_by_kind) {
    if (copies.count > 0) expected[kind] = copies;
  }
  CHECK(analyzed.memcpy_by_kind == expected);
}

void CheckCopyRows(const ProcessFigures& analyzed, const TruthSection& truth) {
  std::map<std::string, CountAndBytes> copies;  // by direction, from the rows' names
  std::map<std::string, double> copy_ns;
  CountAndBytes memsets;
  double memset_ns = 0;
  for (const auto& [name, row] : analyzed.copy_rows) {
    INFO(name);
    CHECK(row.gb_per_s == Approx(static_cast<double>(row.bytes) / row.gpu_total_ns).epsilon(0.006));
    const size_t space = name.rfind(' ');
    if (name.find("Memset") != std::string::npos) {
      CHECK(space == std::string::npos);  // a memset has no direction
      memsets.count += row.calls;
      memsets.bytes += row.bytes;
      memset_ns += row.gpu_total_ns;
      continue;
    }
    REQUIRE(space != std::string::npos);
    CountAndBytes& copy = copies[name.substr(space + 1)];
    copy.count += row.calls;
    copy.bytes += row.bytes;
    copy_ns[name.substr(space + 1)] += row.gpu_total_ns;
  }
  std::map<std::string, CountAndBytes> expected;
  std::map<std::string, double> expected_ns;
  for (const auto& [kind, copy] : truth.memcpy_by_kind) {
    if (copy.count == 0) continue;
    expected[kind] = copy;
    expected_ns[kind] = static_cast<double>(truth.memcpy_ns_by_kind.at(kind));
  }
  CHECK(copies == expected);
  CHECK(copy_ns == expected_ns);
  CHECK(memsets == truth.memset);
  CHECK(memset_ns == static_cast<double>(truth.memset_ns));
}

void CheckCollectives(const ProcessFigures& analyzed, const TruthSection& truth) {
  std::map<std::string, CountAndBytes> expected;
  for (const auto& [op, calls] : truth.collectives) {
    if (calls.count > 0) expected[CollectiveKey(op)] = calls;
  }
  CHECK(analyzed.collectives == expected);
}

namespace {

double NcclTestsBusFactor(const std::string& key, int n) {
  if (key == "ALLREDUCE") return 2.0 * (n - 1) / n;
  if (key == "ALLGATHER" || key == "REDUCESCATTER" || key == "ALLTOALL" || key == "GATHER" ||
      key == "SCATTER") {
    return static_cast<double>(n - 1) / n;
  }
  return 1.0;
}

}  // namespace

void CheckBusBandwidth(const ProcessFigures& analyzed, const TruthSection& truth) {
  for (const auto& [op, calls] : truth.collectives) {
    if (calls.count == 0) continue;
    const std::string key = CollectiveKey(op);
    INFO("NCCL Summary rows of " << key);
    const CollectiveTruth& expected = truth.collective_kernels.at(op);
    REQUIRE(expected.kernel_ns > 0);
    auto found = analyzed.collective_rows.find(key);
    REQUIRE(found != analyzed.collective_rows.end());
    const CollectiveRows& rows = found->second;
    CHECK(rows.ranks == std::set<int>{expected.ranks});
    REQUIRE(rows.time_ns > 0);
    const double algbw = static_cast<double>(calls.bytes) / expected.kernel_ns;  // GB/s
    const double busbw = algbw * NcclTestsBusFactor(key, expected.ranks);
    INFO("algbw " << rows.algbw_time_product / rows.time_ns << " expected " << algbw);
    CHECK(rows.algbw_time_product / rows.time_ns == Approx(algbw).epsilon(0.005));
    INFO("busbw " << rows.busbw_time_product / rows.time_ns << " expected " << busbw);
    CHECK(rows.busbw_time_product / rows.time_ns == Approx(busbw).epsilon(0.005));
  }
}

void CheckPhaseCalls(const ProcessFigures& analyzed, const TruthSection& truth) {
  for (const char* phase : {"Dataloader", "Forward", "Backward", "Optimization"}) {
    INFO("Model Summary row " << phase);
    auto expected = truth.nvtx_ranges.find(phase);
    REQUIRE(expected != truth.nvtx_ranges.end());
    auto found = analyzed.model_rows.find(phase);
    REQUIRE(found != analyzed.model_rows.end());
    CHECK(found->second.calls == expected->second);
  }
}

}  // namespace prof::analyzer::e2e
