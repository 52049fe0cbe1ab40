#include "agent/control/rank_identity.h"

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

RankIdentity Resolve(std::map<std::string, std::string> variables,
                     std::vector<std::string>* warnings) {
  return ResolveRankIdentity(
      [&variables](const char* name) -> const char* {
        auto it = variables.find(name);
        return it == variables.end() ? nullptr : it->second.c_str();
      },
      warnings);
}

void CheckIdentity(const RankIdentity& identity, int rank, int world_size, int local_rank,
                   const std::string& launcher) {
  CHECK(identity.rank == rank);
  CHECK(identity.world_size == world_size);
  CHECK(identity.local_rank == local_rank);
  CHECK(identity.launcher == launcher);
}

TEST_CASE("no launcher: not part of a distributed job") {
  std::vector<std::string> warnings;
  CheckIdentity(Resolve({}, &warnings), -1, 0, -1, "");
  CheckIdentity(Resolve({{"WORLD_SIZE", "4"}, {"SLURM_NTASKS", "4"}}, &warnings), -1, 0, -1, "");
  CHECK(warnings.empty());
}

TEST_CASE("each launcher's own variables") {
  std::vector<std::string> warnings;
  CheckIdentity(Resolve({{"RANK", "3"}, {"WORLD_SIZE", "8"}, {"LOCAL_RANK", "1"}}, &warnings), 3, 8,
                1, "torchrun");
  CheckIdentity(Resolve({{"OMPI_COMM_WORLD_RANK", "5"},
                         {"OMPI_COMM_WORLD_SIZE", "6"},
                         {"OMPI_COMM_WORLD_LOCAL_RANK", "2"}},
                        &warnings),
                5, 6, 2, "openmpi");
  CheckIdentity(
      Resolve({{"PMI_RANK", "2"}, {"PMI_SIZE", "4"}, {"MPI_LOCALRANKID", "0"}}, &warnings), 2, 4, 0,
      "pmi");
  CheckIdentity(Resolve({{"PMI_RANK", "2"}, {"PMI_SIZE", "4"}}, &warnings), 2, 4, -1, "pmi");
  CheckIdentity(
      Resolve({{"SLURM_PROCID", "7"}, {"SLURM_NTASKS", "16"}, {"SLURM_LOCALID", "3"}}, &warnings),
      7, 16, 3, "slurm");
  CheckIdentity(Resolve({{"RANK", " 4 "}}, &warnings), 4, 0, -1, "torchrun");
  CHECK(warnings.empty());
}

TEST_CASE("precedence: torchrun, then Open MPI, then PMI, then Slurm; never mixed") {
  std::vector<std::string> warnings;
  // torchrun started by srun: Slurm's task is the node, torchrun's rank is the process.
  CheckIdentity(Resolve({{"RANK", "1"},
                         {"WORLD_SIZE", "4"},
                         {"LOCAL_RANK", "1"},
                         {"SLURM_PROCID", "0"},
                         {"SLURM_NTASKS", "2"},
                         {"SLURM_LOCALID", "0"}},
                        &warnings),
                1, 4, 1, "torchrun");
  // MPICH's mpiexec inside a Slurm allocation: the allocation's SLURM_* are stale.
  CheckIdentity(Resolve({{"PMI_RANK", "3"},
                         {"PMI_SIZE", "4"},
                         {"SLURM_PROCID", "0"},
                         {"SLURM_NTASKS", "1"},
                         {"SLURM_LOCALID", "0"}},
                        &warnings),
                3, 4, -1, "pmi");
  CheckIdentity(
      Resolve({{"OMPI_COMM_WORLD_RANK", "6"}, {"PMI_RANK", "1"}, {"SLURM_PROCID", "0"}}, &warnings),
      6, 0, -1, "openmpi");
  // RANK without WORLD_SIZE: the size stays unknown rather than borrowed from Slurm.
  CheckIdentity(Resolve({{"RANK", "2"}, {"SLURM_PROCID", "2"}, {"SLURM_NTASKS", "8"}}, &warnings),
                2, 0, -1, "torchrun");
  CHECK(warnings.empty());
}

TEST_CASE("bad launcher values: one warning each, the next launcher or unknown is used") {
  std::vector<std::string> warnings;
  CheckIdentity(Resolve({{"RANK", "abc"}, {"SLURM_PROCID", "2"}}, &warnings), 2, 0, -1, "slurm");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "RANK='abc' is not in 0..2147483646; using the next launcher's variables");
  for (const char* bad :
       {"-1", "2147483647", "9223372036854775807", "99999999999999999999", "1.5"}) {
    warnings.clear();
    CheckIdentity(Resolve({{"PMI_RANK", bad}}, &warnings), -1, 0, -1, "");
    CHECK(warnings.size() == 1);
  }
  warnings.clear();
  CheckIdentity(Resolve({{"RANK", "3"}, {"WORLD_SIZE", "3"}, {"LOCAL_RANK", "4"}}, &warnings), 3, 0,
                -1, "torchrun");
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0] == "WORLD_SIZE='3' is not in 4..2147483647; using an unknown world size");
  CHECK(warnings[1] == "LOCAL_RANK='4' is not in 0..3; using an unknown local rank");
}

}  // namespace
}  // namespace prof
