// profanalyze --version: the release version as the wheel knows it. pip installs the
// wheel's profanalyze as site-packages/libprof/_bin/profanalyze beside
// site-packages/libprof-<version>.dist-info/, whose METADATA "Version:" line is the
// version scripts/package.sh gave the wheel (from the top-level VERSION file and the
// commit). The release tarball (release/make_package.sh) holds the program as
// <root>/libexec/profanalyze with the release in <root>/VERSION. A profanalyze anywhere
// else (bazel-bin) has no such record and says so rather than guess.
#ifndef PROF_ANALYZER_CLI_VERSION_H_
#define PROF_ANALYZER_CLI_VERSION_H_

#include <string>

namespace prof::analyzer {

// The version recorded for the wheel that installed `executable`; "" when none is.
std::string InstalledVersion(const std::string& executable);

// The line --version prints, for this process's executable.
std::string VersionText();

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_CLI_VERSION_H_
