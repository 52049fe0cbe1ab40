#include "analyzer/cli/version.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <vector>

namespace prof::analyzer {
namespace {

std::string Parent(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "Version: X" of a dist-info's METADATA; "" when absent.
std::string MetadataVersion(const std::string& dist_info) {
  std::ifstream metadata(dist_info + "/METADATA");
  const std::string key = "Version: ";
  for (std::string line; std::getline(metadata, line);) {
    if (line.empty()) break;  // the headers end at the first blank line
    if (line.compare(0, key.size(), key) == 0) return line.substr(key.size());
  }
  return "";
}

// The first line of the tarball's <root>/VERSION for <root>/libexec/<program>; "" if none.
std::string TarballVersion(const std::string& executable) {
  const std::string libexec = Parent(executable);
  if (BaseName(libexec) != "libexec") return "";
  std::ifstream file(Parent(libexec) + "/VERSION");
  std::string version;
  std::getline(file, version);
  return version;
}

}  // namespace

std::string InstalledVersion(const std::string& executable) {
  const std::string tarball = TarballVersion(executable);
  if (!tarball.empty()) return tarball;
  const std::string bin = Parent(executable);
  const std::string package = Parent(bin);
  if (BaseName(bin) != "_bin" || BaseName(package) != "libprof") return "";
  const std::string site = Parent(package);
  // opendir/readdir rather than std::filesystem: the shipped profanalyze binds glibc
  // 2.17's symbols only (release/BUILD.bazel), and std::filesystem calls newer ones.
  DIR* folder = opendir(site.c_str());
  if (!folder) return "";
  std::vector<std::string> dist_infos;
  while (const dirent* entry = readdir(folder)) {
    const std::string name = entry->d_name;
    const std::string suffix = ".dist-info";
    if (name.rfind("libprof-", 0) == 0 && name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      dist_infos.push_back(site + "/" + name);
    }
  }
  closedir(folder);
  std::sort(dist_infos.begin(), dist_infos.end());  // pip keeps one; any order is stable
  for (const std::string& dist_info : dist_infos) {
    const std::string version = MetadataVersion(dist_info);
    if (!version.empty()) return version;
  }
  return "";
}

std::string VersionText() {
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  const std::string executable = length > 0 ? std::string(path, length) : "";
  const std::string version = InstalledVersion(executable);
  if (!version.empty()) return "profanalyze " + version;
  return "profanalyze: no release version recorded for " +
         (executable.empty() ? std::string("this program") : executable) +
         " (only the wheel's, installed by pip, and the release tarball's have one)";
}

}  // namespace prof::analyzer
