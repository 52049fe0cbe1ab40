// InstalledVersion: the wheel's METADATA beside an installed libprof/_bin/profanalyze, the
// tarball's VERSION above libexec/profanalyze, and nothing for any other layout.
#include "analyzer/cli/version.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

#include "analyzer/testing/scratch.h"

namespace prof::analyzer {
namespace {

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST_CASE("--version reads the version pip recorded beside the package") {
  const std::string site = testing::ScratchFolder("version_site");
  REQUIRE(std::system(("mkdir -p " + site + "/libprof/_bin " + site +
                       "/libprof-0.2+g1a2b3c.dist-info " + site + "/other-1.0.dist-info")
                          .c_str()) == 0);
  Write(site + "/libprof-0.2+g1a2b3c.dist-info/METADATA",
        "Metadata-Version: 2.1\nName: libprof\nVersion: 0.2+g1a2b3c\n\nVersion: not this\n");
  Write(site + "/other-1.0.dist-info/METADATA", "Name: other\nVersion: 1.0\n");
  CHECK(InstalledVersion(site + "/libprof/_bin/profanalyze") == "0.2+g1a2b3c");
  CHECK(InstalledVersion(site + "/bin/profanalyze").empty());  // not the wheel's layout
  CHECK(InstalledVersion("profanalyze").empty());
  CHECK(VersionText().find("profanalyze: no release version recorded for ") == 0);
}

TEST_CASE("--version reads the release tarball's VERSION beside libexec/") {
  const std::string root = testing::ScratchFolder("version_tarball");
  REQUIRE(std::system(("mkdir -p " + root + "/libexec " + root + "/bin").c_str()) == 0);
  Write(root + "/VERSION", "0.3\n");
  CHECK(InstalledVersion(root + "/libexec/profanalyze") == "0.3");
  CHECK(InstalledVersion(root + "/libexec/profanalyze-mpi") == "0.3");
  CHECK(InstalledVersion(root + "/bin/profanalyze").empty());  // the wrapper's own folder
  Write(root + "/VERSION", "\n");
  CHECK(InstalledVersion(root + "/libexec/profanalyze").empty());  // nothing recorded
}

}  // namespace
}  // namespace prof::analyzer
