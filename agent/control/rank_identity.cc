#include "agent/control/rank_identity.h"

namespace prof {
namespace {

constexpr int64_t kMaxRanks = 2147483647;  // int32 in the header

struct LauncherVariables {
  const char* launcher;
  const char* rank;
  const char* size;
  const char* local_rank;
};

// In precedence order (see the header).
constexpr LauncherVariables kLaunchers[] = {
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
    {"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"pmi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
    {"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};

const char* Value(const EnvironmentLookup& environment, const char* name) {
  const char* value = environment(name);
  return (value && !TrimAscii(value).empty()) ? value : nullptr;
}

// `name`'s value in [minimum, maximum], or `unknown` (with a warning when it is set but
// bad, saying `used`).
int32_t Number(const EnvironmentLookup& environment, const char* name, int64_t minimum,
               int64_t maximum, int32_t unknown, const char* used,
               std::vector<std::string>* warnings) {
  const char* value = Value(environment, name);
  if (!value) return unknown;
  int64_t number = 0;
  if (ParseBoundedInteger(value, minimum, maximum, &number)) return static_cast<int32_t>(number);
  warnings->push_back(ConfigWarning(
      name, value, "is not in " + std::to_string(minimum) + ".." + std::to_string(maximum), used));
  return unknown;
}

}  // namespace

RankIdentity ResolveRankIdentity(const EnvironmentLookup& environment,
                                 std::vector<std::string>* warnings) {
  for (const LauncherVariables& variables : kLaunchers) {
    if (!Value(environment, variables.rank)) continue;
    RankIdentity identity;
    identity.rank = Number(environment, variables.rank, 0, kMaxRanks - 1, -1,
                           "the next launcher's variables", warnings);
    if (identity.rank < 0) continue;
    identity.launcher = variables.launcher;
    identity.world_size = Number(environment, variables.size, identity.rank + 1, kMaxRanks, 0,
                                 "an unknown world size", warnings);
    identity.local_rank = Number(environment, variables.local_rank, 0, identity.rank, -1,
                                 "an unknown local rank", warnings);
    return identity;
  }
  return RankIdentity();
}

}  // namespace prof
