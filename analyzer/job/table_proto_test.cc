// A table that crossed a job partial renders the same bytes, text and JSON, as the table it
// came from (every cell, row and ending kind, widths, notes); an enum value this build does
// not know is refused with a line naming the field.
#include "analyzer/job/table_proto.h"

#include <catch2/catch.hpp>

#include "analyzer/render/json_renderer.h"
#include "analyzer/render/text_renderer.h"

namespace prof::analyzer {
namespace {

SummaryTable EveryKind() {
  SummaryTable table;
  table.key = "kernel";
  table.title = "Kernel Summary";
  table.style = TableStyle::kPerf;
  table.time_unit_line = false;
  table.preamble = {"before the header"};
  table.columns = {{"Name", "name", 24, false, false},
                   {"Calls", "calls", 6, true, false},
                   {"Total", "total", 8, true, false},
                   {"Stats", "stats", 10, true, false},
                   {"Self", "self", 6, true, true}};
  table.AddTitle("Thread: All threads merged");
  Row& row = table.AddRow(
      {Cell::Name("ncclDevKernel_AllReduce(int, float*)", 12, true), Cell::Count(7),
       Cell::Time(1234567.5), Cell::Stats({900, 300, 500, 100, 0.25, false}), Cell::Ratio(0.125)},
      2);
  row.group = "kernels";
  table.AddSeparator();
  table.AddRow({Cell::Text("Others"), Cell::Bytes(4096), Cell::Number(3.14159, 3),
                Cell::DashStats(), Cell::Dash()});
  table.note = {"Note: a note"};
  table.ending = TableEnding::kNote;
  table.epilogue = {"after the table"};
  return table;
}

std::string Json(const SummaryTable& table) {
  JsonWriter json;
  WriteTableJson(table, &json);
  return json.text();
}

TEST_CASE("table proto: a table round-trips to the same text and JSON bytes") {
  const SummaryTable table = EveryKind();
  const absl::StatusOr<SummaryTable> back = TableFromProto(TableToProto(table));
  REQUIRE(back.ok());
  for (TimeUnit unit : {TimeUnit::kMilliseconds, TimeUnit::kNanoseconds})
    CHECK(RenderTable(*back, unit) == RenderTable(table, unit));
  CHECK(Json(*back) == Json(table));
  // Not vacuous: the shortened kernel name, the hidden column and the group are there.
  CHECK(RenderTable(table, TimeUnit::kMilliseconds).find("Self") == std::string::npos);
  CHECK(Json(table).find("\"group\":\"kernels\"") != std::string::npos);
  REQUIRE(back->rows.size() == 4);
  CHECK(back->rows[1].cells[3].stats.ratio == 0.25);
  CHECK(back->rows[1].cells[0].text == "ncclDevKernel_AllReduce(int, float*)");
}

TEST_CASE("table proto: an unknown cell kind or ending is refused, naming the field") {
  prof::job::Table message = TableToProto(EveryKind());
  message.mutable_rows(1)->mutable_cells(2)->set_kind(42);
  absl::StatusOr<SummaryTable> back = TableFromProto(message);
  REQUIRE_FALSE(back.ok());
  CHECK(back.status().message() == "table cell kind 42 is unknown to this profanalyze");
  message = TableToProto(EveryKind());
  message.set_ending(-1);
  back = TableFromProto(message);
  REQUIRE_FALSE(back.ok());
  CHECK(back.status().message() == "table ending -1 is unknown to this profanalyze");
}

}  // namespace
}  // namespace prof::analyzer
