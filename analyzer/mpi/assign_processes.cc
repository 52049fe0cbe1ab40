#include "analyzer/mpi/assign_processes.h"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <system_error>

namespace prof::analyzer {

std::vector<uint64_t> ProcessBytes(const std::vector<ProcessFiles>& processes) {
  std::vector<uint64_t> bytes;
  for (const ProcessFiles& process : processes) {
    uint64_t sum = 0;
    for (const std::string& path : process.paths) {
      std::error_code error;
      const uintmax_t size = std::filesystem::file_size(path, error);
      if (!error) sum += size;
    }
    bytes.push_back(sum);
  }
  return bytes;
}

std::vector<std::vector<ProcessFiles>> AssignLargestFirst(
    const std::vector<ProcessFiles>& processes, const std::vector<uint64_t>& bytes,
    size_t workers) {
  std::vector<std::vector<ProcessFiles>> shares(std::max<size_t>(workers, 1));
  std::vector<size_t> order(processes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
  std::vector<uint64_t> load(shares.size(), 0);
  for (size_t i : order) {
    const size_t worker = std::min_element(load.begin(), load.end()) - load.begin();
    load[worker] += std::max<uint64_t>(bytes[i], 1);  // empty files still spread out
    shares[worker].push_back(processes[i]);
  }
  return shares;
}

std::string EncodeShare(const std::vector<ProcessFiles>& share) {
  std::string bytes;
  for (const ProcessFiles& process : share) {
    for (const std::string& path : process.paths) bytes.append(path).push_back('\0');
    bytes.push_back('\0');
  }
  return bytes;
}

std::vector<ProcessFiles> DecodeShare(const std::string& bytes) {
  std::vector<ProcessFiles> share;
  ProcessFiles process;
  size_t at = 0;
  while (at < bytes.size()) {
    const size_t end = bytes.find('\0', at);
    if (end == std::string::npos) break;  // a damaged share: its unterminated tail is not a path
    if (end == at) {
      share.push_back(std::move(process));
      process = ProcessFiles{};
    } else {
      process.paths.push_back(bytes.substr(at, end - at));
    }
    at = end + 1;
  }
  return share;
}

}  // namespace prof::analyzer
