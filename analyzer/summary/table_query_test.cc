// Row queries over hand-made Operator and Kernel tables; the expected rows and sums are
// worked out by hand from the rows below.
#include "analyzer/summary/table_query.h"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

TimeStats Stats(double total, double calls, double max, double min, double ratio) {
  TimeStats stats;
  stats.total_ns = total;
  stats.avg_ns = total / calls;
  stats.max_ns = max;
  stats.min_ns = min;
  stats.ratio = ratio;
  return stats;
}

// GPU total 1000 ns over the table: 500 + 300 + 150 + 50.
SummaryTable KernelTable() {
  SummaryTable table;
  table.key = "kernel";
  table.columns = {{"Name", "name", 90, false}, {"Calls", "calls", 6}, {"GPU", "gpu", 40}};
  table.AddRow({Cell::Name("void gemm<float>(float*)", 90, true), Cell::Count(5),
                Cell::Stats(Stats(500, 5, 200, 50, 0.5))});
  table.AddRow({Cell::Name("void gemm<half>(half*)", 90, true), Cell::Count(3),
                Cell::Stats(Stats(300, 3, 150, 60, 0.3))});
  table.AddRow({Cell::Name("relu_kernel", 90, true), Cell::Count(2),
                Cell::Stats(Stats(150, 2, 100, 50, 0.15))});
  table.AddRow({Cell::Name("copy_kernel", 90, true), Cell::Count(1),
                Cell::Stats(Stats(50, 1, 50, 50, 0.05))});
  return table;
}

std::vector<std::string> Names(const SummaryTable& table) {
  std::vector<std::string> names;
  for (const Row& row : table.rows) {
    if (row.kind == Row::Kind::kData)
      names.push_back(std::string(row.indent, ' ') + row.cells[0].text);
  }
  return names;
}

TableQuery Query(const std::string& name, const std::string& min_time, const std::string& aggregate,
                 const std::string& order) {
  absl::StatusOr<TableQuery> query = ParseTableQuery(name, min_time, aggregate, order);
  REQUIRE(query.ok());
  return *query;
}

TEST_CASE("--name keeps rows whose name matches; --min-time rows whose total reaches it") {
  SummaryTable table = KernelTable();
  ApplyTableQuery(Query("gemm|relu", "", "", ""), &table);
  CHECK(Names(table) == std::vector<std::string>{"void gemm<float>(float*)",
                                                 "void gemm<half>(half*)", "relu_kernel"});
  table = KernelTable();
  ApplyTableQuery(Query("", "0.3us", "", ""), &table);  // 300 ns: gemm<half> is exactly at it
  CHECK(Names(table) ==
        std::vector<std::string>{"void gemm<float>(float*)", "void gemm<half>(half*)"});
  table = KernelTable();
  ApplyTableQuery(Query("^void", "400ns", "", ""), &table);
  CHECK(Names(table) == std::vector<std::string>{"void gemm<float>(float*)"});
}

TEST_CASE("--aggregate-by base merges rows by name base: calls and totals add, avg recomputed") {
  SummaryTable table = KernelTable();
  ApplyTableQuery(Query("", "", "base", ""), &table);
  REQUIRE(Names(table) == std::vector<std::string>{"gemm", "relu_kernel", "copy_kernel"});
  const Row& gemm = table.rows[0];
  CHECK(gemm.cells[1].value == 8);  // 5 + 3
  const TimeStats& stats = gemm.cells[2].stats;
  CHECK(stats.total_ns == 800);  // 500 + 300
  CHECK(stats.avg_ns == 100);    // 800 / 8
  CHECK(stats.max_ns == 200);
  CHECK(stats.min_ns == 50);
  CHECK(stats.ratio == Approx(0.8));
  CHECK(table.rows[1].cells[2].stats.avg_ns == 75);  // a lone row is left as it was
}

TEST_CASE("--order-by: descending by default, '+' ascending, by name, calls or a time field") {
  SummaryTable table = KernelTable();
  ApplyTableQuery(Query("", "", "", "+gpu_total"), &table);
  CHECK(Names(table) == std::vector<std::string>{"copy_kernel", "relu_kernel",
                                                 "void gemm<half>(half*)",
                                                 "void gemm<float>(float*)"});
  table = KernelTable();
  ApplyTableQuery(Query("", "", "", "+name"), &table);
  CHECK(Names(table).front() == "copy_kernel");
  table = KernelTable();
  ApplyTableQuery(Query("", "", "", "gpu_min"), &table);  // 60, 50, 50, 50 (stable)
  CHECK(Names(table).front() == "void gemm<half>(half*)");
  table = KernelTable();
  ApplyTableQuery(Query("", "", "", "calls"), &table);
  CHECK(Names(table) == std::vector<std::string>{"void gemm<float>(float*)",
                                                 "void gemm<half>(half*)", "relu_kernel",
                                                 "copy_kernel"});
}

TEST_CASE("operator rows keep their inner rows; titles stay; other tables are untouched") {
  SummaryTable table;
  table.key = "operator";
  table.columns = {
      {"Name", "name", 52, false}, {"Calls", "calls", 6}, {"CPU", "cpu", 40}, {"GPU", "gpu", 40}};
  table.AddTitle("Thread: All threads merged");
  table.AddRow({Cell::Text("aten::matmul"), Cell::Count(2),
                Cell::Stats(Stats(900, 2, 500, 400, 0.9)),
                Cell::Stats(Stats(100, 2, 60, 40, 0.5))});
  table.AddRow({Cell::Name("gemm_kernel", 52), Cell::Count(2), Cell::DashStats(),
                Cell::Stats(Stats(100, 2, 60, 40, 1))},
               2);
  table.AddRow({Cell::Text("aten::add"), Cell::Count(1), Cell::Stats(Stats(100, 1, 100, 100, 0.1)),
                Cell::Stats(Stats(100, 1, 100, 100, 0.5))});
  SummaryTable ascending = table;
  ApplyTableQuery(Query("", "", "", "+cpu_total"), &ascending);
  CHECK(ascending.rows[0].kind == Row::Kind::kTitle);
  CHECK(Names(ascending) == std::vector<std::string>{"aten::add", "aten::matmul", "  gemm_kernel"});
  SummaryTable named = table;
  ApplyTableQuery(Query("matmul", "", "", ""), &named);
  CHECK(Names(named) == std::vector<std::string>{"aten::matmul", "  gemm_kernel"});
  SummaryTable other = table;
  other.key = "userdefined";
  ApplyTableQuery(Query("matmul", "", "", ""), &other);
  CHECK(Names(other).size() == 3);
}

TEST_CASE("query words: durations need units; bad regexes and keys are errors") {
  CHECK(*ParseDuration("1.5ms") == 1.5e6);
  CHECK(*ParseDuration("2s") == 2e9);
  CHECK(*ParseDuration("200us") == 2e5);
  CHECK(!ParseDuration("15").ok());
  CHECK(!ParseDuration("ms").ok());
  CHECK(!ParseTableQuery("(", "", "", "").ok());
  CHECK(!ParseTableQuery("", "", "type", "").ok());
  CHECK(!ParseTableQuery("", "", "", "gpu_median").ok());
  CHECK(NameBase("void cutlass::Kernel<Params>(Params const&)") == "cutlass::Kernel");
  CHECK(NameBase("ProfileStep#3") == "ProfileStep");
  CHECK(NameBase("aten::add_") == "aten::add_");
}

}  // namespace
}  // namespace prof::analyzer
