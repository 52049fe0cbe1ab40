#include "analyzer/mpi/assign_processes.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <string_view>
#include <system_error>
#include <unordered_map>

namespace prof::analyzer {
namespace {

// A record's fixed part; the host and the unreadable message follow, NUL-terminated.
struct SeenFixed {
  int32_t rank = -1;
  uint32_t window_index = 0;
  int64_t pid = 0;
  uint64_t bytes = 0;
};

// The NUL-terminated string at `*at`; false when `bytes` ends before its NUL.
bool TakeString(const std::string& bytes, size_t* at, std::string* out) {
  const size_t end = bytes.find('\0', *at);
  if (end == std::string::npos) return false;
  out->assign(bytes, *at, end - *at);
  *at = end + 1;
  return true;
}

}  // namespace

Slice SliceOf(size_t count, size_t worker, size_t workers) {
  workers = std::max<size_t>(workers, 1);
  const size_t base = count / workers, extra = count % workers;
  const size_t first = worker * base + std::min(worker, extra);
  return {std::min(first, count), std::min(first + base + (worker < extra ? 1 : 0), count)};
}

FileSeen SeeFile(const std::string& path) {
  FileSeen seen;
  seen.key = ReadFileHeaderKey(path);
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (!error) seen.bytes = size;
  return seen;
}

std::string EncodeFilesSeen(const std::vector<FileSeen>& seen) {
  std::string bytes;
  for (const FileSeen& file : seen) {
    const SeenFixed fixed{file.key.rank, file.key.window_index, file.key.pid, file.bytes};
    bytes.append(reinterpret_cast<const char*>(&fixed), sizeof(fixed));
    bytes.append(file.key.host).push_back('\0');
    bytes.append(file.key.unreadable).push_back('\0');
  }
  return bytes;
}

bool DecodeFilesSeen(const std::string& bytes, std::vector<FileSeen>* seen) {
  size_t at = 0;
  while (at < bytes.size()) {
    SeenFixed fixed;
    if (bytes.size() - at < sizeof(fixed)) return false;
    std::memcpy(&fixed, bytes.data() + at, sizeof(fixed));
    at += sizeof(fixed);
    FileSeen file;
    if (!TakeString(bytes, &at, &file.key.host) || !TakeString(bytes, &at, &file.key.unreadable))
      return false;
    file.key.rank = fixed.rank;
    file.key.window_index = fixed.window_index;
    file.key.pid = fixed.pid;
    file.bytes = fixed.bytes;
    seen->push_back(std::move(file));
  }
  return true;
}

std::vector<uint64_t> ProcessBytes(const std::vector<ProcessFiles>& processes,
                                   const std::vector<std::string>& files,
                                   const std::vector<FileSeen>& seen) {
  std::unordered_map<std::string_view, uint64_t> file_bytes;
  for (size_t i = 0; i < files.size() && i < seen.size(); ++i) file_bytes[files[i]] = seen[i].bytes;
  std::vector<uint64_t> bytes;
  for (const ProcessFiles& process : processes) {
    uint64_t sum = 0;
    for (const std::string& path : process.paths) {
      const auto found = file_bytes.find(path);
      if (found != file_bytes.end()) sum += found->second;
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

std::string EncodePaths(const std::vector<std::string>& paths) {
  std::string bytes;
  for (const std::string& path : paths) bytes.append(path).push_back('\0');
  return bytes;
}

std::vector<std::string> DecodePaths(const std::string& bytes) {
  std::vector<std::string> paths;
  size_t at = 0;
  std::string path;
  while (at < bytes.size() && TakeString(bytes, &at, &path)) paths.push_back(path);
  return paths;
}

}  // namespace prof::analyzer
