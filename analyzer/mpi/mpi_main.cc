// profanalyze-mpi: profanalyze over MPI, for jobs that outgrow one machine.
// `mpirun -n P profanalyze-mpi [profanalyze's options] PATH...`: each MPI rank reads the
// headers of its slice of the files, and all group them by traced process alike and take
// their shares, largest first (assign_processes.h); every MPI rank maps its share to a job partial
// (cli/job_partial_command.h) holding the tables the output prints (none when it is the
// job view alone). The job view's collectives are exchanged by communicator (MPI_Alltoallv:
// each communicator's records go to the MPI rank owning it, job/sharded_collectives.h),
// and the steps by step number, so no MPI rank holds more than its share of them; only
// per-rank, per-step and per-communicator figures reach rank 0. The partials, their
// collectives and steps left out, are merged along a binomial tree to rank 0, and rank 0
// prints what `profanalyze` prints for the same files. A missing, truncated or corrupt
// rank file is a line in the job's data quality, not a failure.
#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/cli/job_partial_command.h"
#include "analyzer/job/job_partial.h"
#include "analyzer/job/sharded_collectives.h"
#include "analyzer/mpi/assign_processes.h"
#include "analyzer/mpi/mpi_exchange.h"
#include "analyzer/pipeline/inputs.h"

namespace prof::analyzer {
namespace {

constexpr int kPartialTag = 2;
constexpr uint64_t kChunk = 1 << 30;  // MPI counts are ints: bytes go in chunks of 1 GiB

void SendBytes(const std::string& bytes, int to, int tag) {
  uint64_t size = bytes.size();
  MPI_Send(&size, 1, MPI_UINT64_T, to, tag, MPI_COMM_WORLD);
  for (uint64_t at = 0; at < size; at += kChunk) {
    MPI_Send(bytes.data() + at, static_cast<int>(std::min(kChunk, size - at)), MPI_BYTE, to, tag,
             MPI_COMM_WORLD);
  }
}

std::string ReceiveBytes(int from, int tag) {
  uint64_t size = 0;
  MPI_Recv(&size, 1, MPI_UINT64_T, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::string bytes(size, '\0');
  for (uint64_t at = 0; at < size; at += kChunk) {
    MPI_Recv(bytes.data() + at, static_cast<int>(std::min(kChunk, size - at)), MPI_BYTE, from, tag,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return bytes;
}

// Every MPI rank reads the headers of its slice of the input files (rank 0 expands the
// PATHs, one folder listing, and all get the same list); the records are gathered by all,
// and every rank groups and assigns them alike, so no rank reads every header while the
// others wait. Returns this rank's share, and the job's process count (which tables the
// output prints depends on it); rank 0 also gets every unreadable input, in the order
// profanalyze lists them (PATHs first, then headers), so each is one line, once.
std::vector<ProcessFiles> ShareOut(const SummaryCommandOptions& options, Exchange& exchange,
                                   std::vector<std::string>* unreadable,
                                   uint64_t* processes_total) {
  std::vector<std::string> unexpanded;
  const std::vector<std::string> files = DecodePaths(exchange.AllGather(
      exchange.Rank() == 0 ? EncodePaths(ExpandEachInput(options.paths, &unexpanded)) : "")[0]);
  const Slice mine = SliceOf(files.size(), exchange.Rank(), exchange.Size());
  std::vector<FileSeen> seen_here;
  for (size_t i = mine.first; i < mine.last; ++i) seen_here.push_back(SeeFile(files[i]));
  const std::vector<std::string> blobs = exchange.AllGather(EncodeFilesSeen(seen_here));
  std::vector<FileSeen> seen;
  for (int from = 0; from < exchange.Size(); ++from) {
    const Slice theirs = SliceOf(files.size(), from, exchange.Size());
    DecodeFilesSeen(blobs[from], &seen);
    while (seen.size() < theirs.last) {  // records lost between MPI ranks: said, not dropped
      FileSeen lost;
      lost.key.unreadable = files[seen.size()] + ": its header record from MPI rank " +
                            std::to_string(from) + " was lost";
      seen.push_back(std::move(lost));
    }
    seen.resize(theirs.last);
  }
  std::vector<FileHeaderKey> keys;
  for (const FileSeen& file : seen) keys.push_back(file.key);
  std::vector<std::string> unread_headers;
  const std::vector<ProcessFiles> processes = GroupFilesByKey(files, keys, &unread_headers);
  *processes_total = processes.size();
  if (exchange.Rank() == 0) {
    *unreadable = std::move(unexpanded);
    unreadable->insert(unreadable->end(), unread_headers.begin(), unread_headers.end());
  }
  std::vector<std::vector<ProcessFiles>> shares =
      AssignLargestFirst(processes, ProcessBytes(processes, files, seen), exchange.Size());
  return std::move(shares[exchange.Rank()]);
}

// Binomial tree: at distance d, a rank with rank % 2d == d sends to rank - d and is done.
prof::job::JobPartial ReduceToRankZero(prof::job::JobPartial partial, int rank, int size) {
  for (int distance = 1; distance < size; distance *= 2) {
    if (rank % (2 * distance) == distance) {
      SendBytes(SerializeJobPartial(partial), rank - distance, kPartialTag);
      return {};
    }
    if (rank + distance < size) {
      absl::StatusOr<prof::job::JobPartial> received =
          ParseJobPartial(ReceiveBytes(rank + distance, kPartialTag));
      if (received.ok()) {
        MergeJobPartial(*std::move(received), &partial);
      } else {
        partial.add_unreadable("MPI rank " + std::to_string(rank + distance) + ": " +
                               std::string(received.status().message()));
      }
    }
  }
  return partial;
}

// The job view's collective figures, exchanged by communicator (steps by step number); the
// partial's ranks give up their collectives and steps to it (the figures stand for them).
CollectiveFigures ShardCollectives(Exchange& exchange, prof::job::JobPartial* partial,
                                    size_t* rank_count) {
  const std::vector<uint32_t> indices = IndexRanksSharded(exchange, partial->ranks(), rank_count);
  std::vector<ShardRank> ranks;
  for (int i = 0; i < partial->ranks_size(); ++i) {
    prof::job::RankPartial& rank = *partial->mutable_ranks(i);
    CollectiveTable table = CollectiveTableOf(rank);
    ranks.push_back({indices[i], std::move(table.collectives), std::move(table.steps)});
    prof::job::CollectiveColumns().Swap(rank.mutable_collectives());  // freed, not kept
    prof::job::StepColumns().Swap(rank.mutable_steps());
  }
  return AnalyzeCollectivesSharded(exchange, std::move(ranks), *rank_count);
}

// PROFANALYZE_MPI_PHASE_TIMES=1 (bench_job.sh): each MPI rank's wall and CPU time (its
// process's, Open MPI's polling while it waits included) to read and share out the inputs.
class PhaseTimer {
 public:
  PhaseTimer() : wall_(Now(CLOCK_MONOTONIC)), cpu_(Now(CLOCK_PROCESS_CPUTIME_ID)) {}
  void Print(const char* phase, int rank) const {
    if (std::getenv("PROFANALYZE_MPI_PHASE_TIMES") == nullptr) return;
    std::fprintf(stderr, "profanalyze-mpi: MPI rank %d: %s: wall %.3f s, CPU %.3f s\n", rank,
                 phase, Now(CLOCK_MONOTONIC) - wall_, Now(CLOCK_PROCESS_CPUTIME_ID) - cpu_);
  }

 private:
  static double Now(clockid_t clock) {
    timespec now{};
    clock_gettime(clock, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
  }
  double wall_, cpu_;
};

int Run(const SummaryCommandOptions& options, int rank, int size) {
  // PROFANALYZE_MPI_ROUND_BYTES (tests only, mpi_job_test.sh): smaller exchange rounds than
  // 1 GiB, so a small job goes through the rounds a large one needs.
  const char* round_bytes = std::getenv("PROFANALYZE_MPI_ROUND_BYTES");
  MpiExchange exchange(round_bytes && std::atoll(round_bytes) > 0 ? std::atoll(round_bytes)
                                                                  : uint64_t{1} << 30);
  Inputs share;  // this rank's processes; rank 0 also holds the unreadable inputs
  uint64_t processes = 0;
  const PhaseTimer headers;
  share.processes = ShareOut(options, exchange, &share.unreadable, &processes);
  headers.Print("headers", rank);
  const TablePolicy tables = TablesPrinted(options, static_cast<size_t>(processes));
  prof::job::JobPartial partial = MapProcesses(share, options, tables);
  size_t rank_count = 0;
  const CollectiveFigures figures = ShardCollectives(exchange, &partial, &rank_count);
  partial = ReduceToRankZero(std::move(partial), rank, size);
  int exit_code = 0;
  if (rank == 0 && TablesPrinted(options, partial.ranks_size()).kind != tables.kind) {
    // Processes that could not be read left 8 or fewer: profanalyze would print their
    // tables, which were not kept. Said, not hidden.
    std::fprintf(stderr,
                 "profanalyze-mpi: %d of %llu processes were read: their tables were not kept "
                 "(--all-ranks keeps them)\n",
                 partial.ranks_size(), static_cast<unsigned long long>(processes));
  }
  const bool all_arrived = static_cast<size_t>(partial.ranks_size()) == rank_count;
  if (rank == 0 && !all_arrived) {
    // A partial lost between MPI ranks: the figures no longer line up with the ranks.
    std::fprintf(stderr,
                 "profanalyze-mpi: %d of %zu ranks reached MPI rank 0: the job view is left "
                 "without their collectives\n",
                 partial.ranks_size(), rank_count);
  }
  if (rank == 0) {
    const SummaryOutput output =
        ProducePartialSummary(options, partial, all_arrived ? &figures : nullptr);
    std::fputs(output.text.c_str(), stdout);
    std::fflush(stdout);
    exit_code = output.exit_code;
  }
  MPI_Bcast(&exit_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return exit_code;
}

}  // namespace
}  // namespace prof::analyzer

int main(int argc, char** argv) {
  using namespace prof::analyzer;
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CLI::App app{
      "profanalyze-mpi: profanalyze's output for many rank files, analyzed by MPI processes"};
  app.name("profanalyze-mpi");
  SummaryCommandOptions options;
  AddSummaryOptions(&app, &options);
  int exit_code = 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    exit_code = rank == 0 ? app.exit(e) : (e.get_exit_code() ? 2 : 0);
    MPI_Finalize();
    return exit_code;
  }
  if (options.paths.empty()) {
    if (rank == 0)
      std::fprintf(stderr,
                   "profanalyze-mpi: give at least one trace file or folder (see --help)\n");
    MPI_Finalize();
    return 2;
  }
  int valid = rank == 0 ? CheckPartialOptions(options) : 0;  // rank 0 says what is wrong
  MPI_Bcast(&valid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!valid) {
    MPI_Finalize();
    return 2;
  }
  try {
    exit_code = Run(options, rank, size);
  } catch (const std::exception& e) {
    // The other MPI ranks would wait for this one forever: stop them all.
    std::fprintf(stderr, "profanalyze-mpi: MPI rank %d: internal error: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return exit_code;
}
