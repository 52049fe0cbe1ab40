// Rank identity end to end: `train` run as two ranks the way srun (Slurm variables only)
// and MPICH's Hydra (PMI variables only) start processes, each under libprof.so. The file
// name and the file header must carry the same rank, so that the analyzer orders the
// processes by rank and `profanalyze --rank N` prints that process's tables.
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/e2e/analyzed_run.h"
#include "analyzer/e2e/workload_runner.h"
#include "proto/trace.pb.h"
#include "proto/trace_file_reader.h"

namespace prof::analyzer::e2e {
namespace {

constexpr int kRanks = 2;

struct Launcher {
  const char* name;
  const char* rank_variable;
  const char* size_variable;
  const char* local_rank_variable;
};

std::vector<WorkloadProcess> Ranks(const Launcher& launcher) {
  std::vector<WorkloadProcess> processes;
  for (int rank = 0; rank < kRanks; ++rank) {
    processes.push_back({Runfile("testdata/workloads/train"),
                         {"--steps", "2"},
                         {{launcher.rank_variable, std::to_string(rank)},
                          {launcher.size_variable, std::to_string(kRanks)},
                          {launcher.local_rank_variable, std::to_string(rank)}}});
  }
  return processes;
}

// What `profanalyze ARGUMENTS` prints on stdout and stderr.
std::string Profanalyze(const std::string& arguments) {
  const std::string command = Runfile("analyzer/cli/profanalyze") + " " + arguments + " 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, got);
  pclose(pipe);
  return output;
}

TEST_CASE("Slurm-only and PMI-only ranks: file name, header and --rank agree") {
  const Launcher launchers[] = {{"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
                                {"pmi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"}};
  for (const Launcher& launcher : launchers) {
    INFO(launcher.name);
    const std::string output = FreshFolder(std::string("ranks_") + launcher.name);
    const absl::Status run = RunUnderAgent(Ranks(launcher), output);
    INFO(run.ToString());
    REQUIRE(run.ok());

    std::set<std::string> rank_parts;
    for (const auto& entry : std::filesystem::directory_iterator(output)) {
      const std::string name = entry.path().filename().string();
      const size_t at = name.find("_rank_");
      REQUIRE(at != std::string::npos);
      const std::string rank_part = name.substr(at, name.find('.', at) - at);
      rank_parts.insert(rank_part);
      // The header says what the name says (both come from one identity in the agent).
      auto reader = TraceFileReader::Open(entry.path().string());
      REQUIRE(reader.ok());
      const trace::FileHeader& header = (*reader)->header();
      CHECK("_rank_" + std::to_string(header.rank()) == rank_part);
      CHECK(header.world_size() == kRanks);
      CHECK(header.local_rank() == header.rank());
    }
    CHECK(rank_parts == std::set<std::string>{"_rank_0", "_rank_1"});

    absl::StatusOr<std::vector<ProcessFigures>> analyzed = AnalyzeFolder(output);
    REQUIRE(analyzed.ok());
    REQUIRE(analyzed->size() == kRanks);
    CHECK((*analyzed)[0].rank == 0);  // the header's rank, as the analyzer reads it
    CHECK((*analyzed)[1].rank == 1);

    const std::string only_one = Profanalyze("'" + output + "' --rank 1");
    INFO(only_one.substr(0, 2000));
    CHECK(only_one.find("Rank 1 (host") != std::string::npos);
    CHECK(only_one.find("Rank 0 (host") == std::string::npos);
    CHECK(only_one.find("Kernel Summary") != std::string::npos);
  }
}

}  // namespace
}  // namespace prof::analyzer::e2e
