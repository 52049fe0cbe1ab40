// profanalyze: parses the command line and dispatches to one subcommand. Nothing else.
#include <cstdio>
#include <exception>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "analyzer/cli/compare_command.h"
#include "analyzer/cli/export_command.h"
#include "analyzer/cli/hang_command.h"
#include "analyzer/cli/info_command.h"
#include "analyzer/cli/job_partial_command.h"
#include "analyzer/cli/perf_command.h"
#include "analyzer/cli/report_command.h"
#include "analyzer/cli/summary_command.h"
#include "analyzer/cli/trigger_command.h"
#include "analyzer/cli/version.h"
#include "analyzer/pipeline/heap_policy.h"

int main(int argc, char** argv) {
  using namespace prof::analyzer;
  KeepFreedMemoryForReuse();  // slices and windows reuse each other's pages (heap_policy.h)
  CLI::App app{"profanalyze: summaries, exports and data quality of libprof traces"};
  app.name("profanalyze");
  app.set_version_flag("--version", std::function<std::string()>(VersionText),
                       "the release version (the wheel's) and exit");
  SummaryCommandOptions summary;
  ExportCommandOptions export_options;
  InfoCommandOptions info;
  AddSummaryOptions(&app, &summary);
  CLI::App* export_command = AddExportCommand(&app, &export_options);
  CLI::App* info_command = AddInfoCommand(&app, &info);
  CompareCommandOptions compare;
  CLI::App* compare_command = AddCompareCommand(&app, &compare);
  TriggerCommandOptions trigger;
  CLI::App* trigger_command = AddTriggerCommand(&app, &trigger);
  ReportCommandOptions report;
  CLI::App* report_command = AddReportCommand(&app, &report);
  HangCommandOptions hang;
  CLI::App* hang_command = AddHangCommand(&app, &hang);
  MapCommandOptions map;
  CLI::App* map_command = AddMapCommand(&app, &map);
  SummaryCommandOptions reduce;
  CLI::App* reduce_command = AddReduceCommand(&app, &reduce);
  PerfCommandOptions perf;
  CLI::App* perf_command = AddPerfCommand(&app, &perf);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    std::printf("%s\n", e.what());
    return 0;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "profanalyze: %s (see --help)\n", e.what());
    return 2;
  }
  try {
    if (export_command->parsed()) return RunExportCommand(export_options);
    if (info_command->parsed()) return RunInfoCommand(info);
    if (compare_command->parsed()) return RunCompareCommand(compare);
    if (trigger_command->parsed()) return RunTriggerCommand(trigger);
    if (report_command->parsed()) return RunReportCommand(report);
    if (hang_command->parsed()) return RunHangCommand(hang);
    if (map_command->parsed()) return RunMapCommand(map);
    if (reduce_command->parsed()) return RunReduceCommand(reduce);
    if (perf_command->parsed()) return RunPerfCommand(perf);
    if (summary.paths.empty()) {
      std::fprintf(stderr, "profanalyze: give at least one trace file or folder (see --help)\n");
      return 2;
    }
    return RunSummaryCommand(summary);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "profanalyze: internal error: %s\n", e.what());
    return 1;
  }
}
