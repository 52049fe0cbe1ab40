#include "analyzer/pipeline/inputs.h"

#include "analyzer/read/input_paths.h"

namespace prof::analyzer {

size_t Inputs::FileCount() const {
  size_t count = 0;
  for (const ProcessFiles& process : processes) count += process.paths.size();
  return count;
}

absl::StatusOr<Inputs> OpenInputs(const std::vector<std::string>& paths) {
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths(paths);
  if (!files.ok()) return files.status();
  Inputs inputs;
  inputs.processes = GroupFilesByProcess(*files, &inputs.unreadable);
  return inputs;
}

std::vector<std::string> ExpandEachInput(const std::vector<std::string>& paths,
                                         std::vector<std::string>* unreadable) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    absl::StatusOr<std::vector<std::string>> expanded = ExpandInputPaths({path});
    if (!expanded.ok()) {
      unreadable->push_back(std::string(expanded.status().message()));
      continue;
    }
    files.insert(files.end(), expanded->begin(), expanded->end());
  }
  return files;
}

Inputs OpenEachInput(const std::vector<std::string>& paths) {
  Inputs inputs;
  const std::vector<std::string> files = ExpandEachInput(paths, &inputs.unreadable);
  inputs.processes = GroupFilesByProcess(files, &inputs.unreadable);
  return inputs;
}

}  // namespace prof::analyzer
