#include "analyzer/read/process_files.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/status/statusor.h"
#include "proto/trace_file_reader.h"

namespace prof::analyzer {

FileHeaderKey ReadFileHeaderKey(const std::string& path) {
  FileHeaderKey key;
  absl::StatusOr<std::unique_ptr<TraceFileReader>> reader = TraceFileReader::Open(path);
  if (!reader.ok()) {
    key.unreadable = std::string(reader.status().message());
    if (key.unreadable.empty()) key.unreadable = path + ": cannot be read";  // never a silent drop
    return key;
  }
  const trace::FileHeader& header = (*reader)->header();
  key.rank = header.rank();
  key.host = header.host_name();
  key.pid = header.pid();
  key.window_index = header.window_index();
  return key;
}

std::vector<ProcessFiles> GroupFilesByKey(const std::vector<std::string>& files,
                                          const std::vector<FileHeaderKey>& keys,
                                          std::vector<std::string>* unreadable) {
  struct WindowFile {
    uint32_t window_index = 0;
    std::string path;
  };
  std::map<std::tuple<int32_t, std::string, int64_t>, std::vector<WindowFile>> processes;
  for (size_t i = 0; i < files.size() && i < keys.size(); ++i) {
    const FileHeaderKey& key = keys[i];
    if (!key.unreadable.empty()) {
      unreadable->push_back(key.unreadable);
      continue;
    }
    processes[{key.rank, key.host, key.pid}].push_back({key.window_index, files[i]});
  }
  std::vector<ProcessFiles> grouped;
  for (auto& [key, windows] : processes) {
    std::stable_sort(windows.begin(), windows.end(), [](const WindowFile& a, const WindowFile& b) {
      return a.window_index < b.window_index;
    });
    ProcessFiles& process = grouped.emplace_back();
    std::tie(process.rank, process.host, process.pid) = key;
    for (WindowFile& window : windows) process.paths.push_back(std::move(window.path));
  }
  return grouped;
}

std::vector<ProcessFiles> GroupFilesByProcess(const std::vector<std::string>& files,
                                              std::vector<std::string>* unreadable) {
  std::vector<FileHeaderKey> keys;
  keys.reserve(files.size());
  for (const std::string& path : files) keys.push_back(ReadFileHeaderKey(path));
  return GroupFilesByKey(files, keys, unreadable);
}

}  // namespace prof::analyzer
