#include "analyzer/read/process_files.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/status/statusor.h"
#include "proto/trace_file_reader.h"

namespace prof::analyzer {

std::vector<ProcessFiles> GroupFilesByProcess(const std::vector<std::string>& files,
                                              std::vector<std::string>* unreadable) {
  struct WindowFile {
    uint32_t window_index = 0;
    std::string path;
  };
  std::map<std::tuple<int32_t, std::string, int64_t>, std::vector<WindowFile>> processes;
  for (const std::string& path : files) {
    absl::StatusOr<std::unique_ptr<TraceFileReader>> reader = TraceFileReader::Open(path);
    if (!reader.ok()) {
      unreadable->push_back(std::string(reader.status().message()));
      continue;
    }
    const trace::FileHeader& header = (*reader)->header();
    processes[{header.rank(), header.host_name(), header.pid()}].push_back(
        {header.window_index(), path});
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

}  // namespace prof::analyzer
