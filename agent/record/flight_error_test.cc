// The NCCL-error latch (flight_error.h): the first failure wins, is taken once, and only
// peer or system failures qualify.
#include "agent/record/flight_error.h"

#include <string>

#include <catch2/catch.hpp>

namespace prof {
namespace {

TEST_CASE("the first NCCL failure is taken once; later ones change nothing") {
  ResetFlightErrorAfterFork();
  int32_t result = -1;
  uint64_t ticket = 0;
  CHECK_FALSE(TakeFlightError(&result, &ticket));
  NoteFlightError(6, 25);
  NoteFlightError(2, 26);
  REQUIRE(TakeFlightError(&result, &ticket));
  CHECK(result == 6);
  CHECK(ticket == 25);
  CHECK(std::string(NcclResultName(result)) == "ncclRemoteError");
  CHECK_FALSE(TakeFlightError(&result, &ticket));
  ResetFlightErrorAfterFork();  // a forked child starts clean
  NoteFlightError(2, 3);
  REQUIRE(TakeFlightError(&result, &ticket));
  CHECK(std::string(NcclResultName(result)) == "ncclSystemError");
}

TEST_CASE("only a peer's or the system's failure is worth a dump") {
  CHECK(FlightDumpWorthyError(2));        // ncclSystemError
  CHECK(FlightDumpWorthyError(6));        // ncclRemoteError
  CHECK_FALSE(FlightDumpWorthyError(0));  // ncclSuccess
  CHECK_FALSE(FlightDumpWorthyError(4));  // ncclInvalidArgument: the program's own
  CHECK_FALSE(FlightDumpWorthyError(7));  // ncclInProgress
}

}  // namespace
}  // namespace prof
