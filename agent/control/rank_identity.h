// Which rank of a distributed job this process is, from the variables its launcher set.
// Computed once (in ParseConfig) and used for both the trace file name and the file
// header, so the two always agree and the analyzer's --rank finds the process.
//
// Precedence, first launcher whose rank variable is set wins, and all three numbers come
// from that launcher only (mixing launchers mixes meanings: under `srun torchrun`,
// SLURM_NTASKS counts nodes while WORLD_SIZE counts ranks):
//   1. torchrun / torch.distributed: RANK, WORLD_SIZE, LOCAL_RANK
//   2. Open MPI (mpirun):            OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK
//   3. PMI (MPICH/Hydra, Intel MPI):  PMI_RANK, PMI_SIZE, MPI_LOCALRANKID
//   4. Slurm (srun):                 SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID
// An MPI launcher started inside a Slurm allocation leaves the allocation's SLURM_*
// variables behind, so the MPI launchers come before Slurm; torchrun sets RANK itself
// whatever started it, so it comes first.
//
// A rank outside 0..2^31-2 (or not a number) is one warning and that launcher is skipped;
// a bad size (or one not above the rank) or local rank is one warning and left unknown.
#ifndef PROF_AGENT_CONTROL_RANK_IDENTITY_H_
#define PROF_AGENT_CONTROL_RANK_IDENTITY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "agent/control/config_values.h"

namespace prof {

struct RankIdentity {
  int32_t rank = -1;          // -1: not part of a distributed job
  int32_t world_size = 0;     // 0: unknown
  int32_t local_rank = -1;    // -1: unknown
  const char* launcher = "";  // "torchrun", "openmpi", "pmi", "slurm"; "" when none
};

RankIdentity ResolveRankIdentity(const EnvironmentLookup& environment,
                                 std::vector<std::string>* warnings);

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_RANK_IDENTITY_H_
