#include "analyzer/cli/summary_command.h"

#include <cstdio>
#include <map>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/job/job_analysis.h"
#include "analyzer/job/job_partial.h"
#include "analyzer/job/job_tables.h"
#include "analyzer/render/json_renderer.h"
#include "analyzer/render/report_text.h"
#include "analyzer/render/text_renderer.h"
#include "analyzer/summary/report.h"
#include "analyzer/summary/table_query.h"

namespace prof::analyzer {
namespace {

const std::map<std::string, SortKey>& SortKeys() {
  static const auto* keys = new std::map<std::string, SortKey>{
      {"CPUTotal", SortKey::kCpuTotal}, {"CPUAvg", SortKey::kCpuAvg},
      {"CPUMax", SortKey::kCpuMax},     {"CPUMin", SortKey::kCpuMin},
      {"GPUTotal", SortKey::kGpuTotal}, {"GPUAvg", SortKey::kGpuAvg},
      {"GPUMax", SortKey::kGpuMax},     {"GPUMin", SortKey::kGpuMin}};
  return *keys;
}

}  // namespace

void AddSummaryOptions(CLI::App* app, SummaryCommandOptions* options) {
  app->add_option("PATH", options->paths, "trace files or folders of them");
  std::vector<std::string> keys;
  for (const auto& entry : SortKeys()) keys.push_back(entry.first);
  app->add_option("--sorted-by", options->sorted_by,
                  "sort key of the Operator, Kernel, UserDefined and CUDA API tables")
      ->check(CLI::IsMember(keys));
  app->add_option("--views", options->views,
                  "comma-separated tables: device,overview,model,distributed,operator,kernel,"
                  "memory_manipulation,userdefined,perf,cuda_api,nccl,memory,data_quality,job");
  app->add_flag("--op-detail,!--no-op-detail", options->op_detail,
                "inner ranges and kernels under each operator");
  app->add_flag("--thread-sep", options->thread_sep, "one Operator/UserDefined group per thread");
  app->add_flag("--group-by-shape", options->group_by_shape,
                "one Operator Summary row per operator and input shapes (PROF_SHAPES=1)");
  app->add_flag(
      "--self", options->self_time,
      "Self CPU / Self GPU columns (time minus children) in the Operator and Model tables");
  app->add_option("--time-unit", options->time_unit, "time unit of the tables")
      ->check(CLI::IsMember({"s", "ms", "us", "ns"}));
  app->add_option("--top", options->top, "at most N rows in the name tables (0: all)")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--perf-skip", options->perf_skip,
                  "warm-up steps the Perf Summary skips (default: 10 if more than 10 steps)")
      ->check(CLI::NonNegativeNumber);
  app->add_flag("--include-setup", options->include_setup,
                "count step 0 of a run recorded with no schedule (program start to the first step "
                "boundary) as a step instead of showing it apart as set-up");
  app->add_option("--rank", options->rank, "print only this rank's tables");
  app->add_flag("--all-ranks", options->all_ranks,
                "with more than 8 ranks, print every rank's tables instead of the job view");
  app->add_option("--format", options->format, "output format")
      ->check(CLI::IsMember({"text", "json"}));
  app->add_option("--threads", options->threads, "reader threads (0: one per core)")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--window", options->window,
                  "summaries of recording window K only (the file's window index)")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--type", options->types,
                  "comma-separated tables to show (the names of --views); with --views: both");
  app->add_option(
      "--min-time", options->min_time,
      "Operator and Kernel rows whose CPU or GPU total reaches DURATION (e.g. 1.5ms, 200us)");
  app->add_option("--name", options->name_regex,
                  "Operator and Kernel rows whose name matches REGEX (ECMAScript)");
  app->add_option("--aggregate-by", options->aggregate_by,
                  "base: merge Operator and Kernel rows by their name up to '<', '(' or '#'")
      ->check(CLI::IsMember({"name", "base"}));
  app->add_option("--order-by", options->order_by,
                  "order Operator and Kernel rows by [+|-]name, calls or "
                  "{cpu,gpu}_{total,avg,max,min} ('+': ascending)");
}

absl::StatusOr<ViewSet> SelectedViews(const SummaryCommandOptions& options) {
  ViewSet views = AllViews();
  for (const std::string* list : {&options.views, &options.types}) {
    if (list->empty()) continue;
    absl::StatusOr<ViewSet> parsed = ParseViews(*list);
    if (!parsed.ok()) return parsed.status();
    ViewSet both;
    for (View view : views) {
      if (parsed->count(view)) both.insert(view);
    }
    views = both;
  }
  return views;
}

namespace {

// The job view's tables, or none: asked for by --views job, or the default past
// kJobViewRanks ranks (no --views, --rank or --all-ranks).
std::vector<SummaryTable> JobView(const SummaryCommandOptions& options, const ViewSet& views,
                                  const AnalyzedInputs& inputs, bool job_alone,
                                  const CollectiveFigures* figures) {
  const bool asked = (!options.views.empty() || !options.types.empty()) && views.count(View::kJob);
  if (!asked && !job_alone) return {};
  // Through a partial, as `profanalyze reduce` and profanalyze-mpi: one pipeline, the same bytes.
  const JobReports ranks = JobReportsOf(JobPartialOf(inputs.reports, inputs.unreadable));
  const JobAnalysis job = figures ? AnalyzeJobWith(ranks.reports, ranks.unreadable.size(), *figures)
                                  : AnalyzeJob(ranks.reports, ranks.unreadable.size());
  return JobTables(job, options.format == "json" ? 0 : kJobTextRows);
}

std::string Render(const SummaryCommandOptions& options, const ViewSet& views,
                   const AnalyzedInputs& inputs, const CollectiveFigures* figures = nullptr) {
  const std::vector<ProcessReport>& reports = inputs.reports;
  const bool views_given = !options.views.empty() || !options.types.empty();
  const bool job_alone =
      reports.size() > kJobViewRanks && !views_given && options.rank < 0 && !options.all_ranks;
  const std::vector<SummaryTable> job = JobView(options, views, inputs, job_alone, figures);
  std::optional<SummaryTable> ranks;
  if (reports.size() > 1 && views.count(View::kDistributed)) ranks = RankSummary(reports);
  if (options.format == "json") return RenderReportsJson(reports, ranks, inputs.unreadable, job);
  const TimeUnit unit = *ParseTimeUnit(options.time_unit);
  std::string text = RenderTablesText(job, unit);
  const bool job_only = views.size() == 1 && views.count(View::kJob);
  if (!job_alone && !job_only) text += RenderReportsText(reports, ranks, unit, options.rank);
  return text;
}

// The common tail: a warning for an empty recording, then the tables.
std::string RenderRead(const SummaryCommandOptions& options, const ViewSet& views,
                       const AnalyzedInputs& inputs, const CollectiveFigures* figures = nullptr) {
  uint64_t events = 0;
  for (const ProcessReport& report : inputs.reports) events += report.event_count;
  if (events == 0)
    std::fprintf(stderr, "profanalyze: the trace holds no events (empty recording window)\n");
  return Render(options, views, inputs, figures);
}

}  // namespace

SummaryOptions SummaryOptionsOf(const SummaryCommandOptions& options) {
  SummaryOptions summary;
  summary.sorted_by = SortKeys().at(options.sorted_by);
  summary.op_detail = options.op_detail;
  summary.thread_sep = options.thread_sep;
  summary.group_by_shape = options.group_by_shape;
  summary.self_time = options.self_time;
  summary.top = options.top;
  summary.perf_skip = options.perf_skip;
  summary.include_setup = options.include_setup;
  return summary;
}

absl::Status CheckSummaryOptionValues(const SummaryCommandOptions& options) {
  if (SortKeys().count(options.sorted_by) == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("sorted_by: unknown key '", options.sorted_by, "'"));
  }
  if (!ParseTimeUnit(options.time_unit).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("time_unit: '", options.time_unit, "' is not one of s, ms, us, ns"));
  }
  if (options.format != "text" && options.format != "json") {
    return absl::InvalidArgumentError(
        absl::StrCat("format: '", options.format, "' is not text or json"));
  }
  if (options.top < 0 || options.perf_skip < -1 || options.threads < 0 || options.window < -1) {
    return absl::InvalidArgumentError("top, perf_skip, threads and window must not be negative");
  }
  return absl::OkStatus();
}

absl::StatusOr<SummaryResult> AnalyzeSummary(const SummaryCommandOptions& options) {
  if (absl::Status status = CheckSummaryOptionValues(options); !status.ok()) return status;
  absl::StatusOr<ViewSet> selected = SelectedViews(options);
  absl::StatusOr<TableQuery> query =
      ParseTableQuery(options.name_regex, options.min_time, options.aggregate_by, options.order_by);
  for (const absl::Status& status : {selected.status(), query.status()}) {
    if (!status.ok()) return absl::InvalidArgumentError(status.message());
  }
  absl::StatusOr<AnalyzedInputs> inputs = AnalyzeInputs(options.paths, SummaryOptionsOf(options),
                                                        *selected, options.threads, options.window);
  if (!inputs.ok()) return inputs.status();
  for (ProcessReport& report : inputs->reports) {
    for (SummaryTable& table : report.tables) ApplyTableQuery(*query, &table);
  }
  return SummaryResult{*std::move(inputs), *selected};
}

std::string RenderSummary(const SummaryCommandOptions& options, const SummaryResult& result) {
  return Render(options, result.views, result.inputs);
}

SummaryOutput ProduceSummary(const SummaryCommandOptions& options) {
  absl::StatusOr<SummaryResult> result = AnalyzeSummary(options);
  if (!result.ok()) {
    std::fprintf(stderr, "profanalyze: %s\n", std::string(result.status().message()).c_str());
    return {absl::IsInvalidArgument(result.status()) ? 2 : 1, ""};
  }
  const AnalyzedInputs& inputs = result->inputs;
  for (const std::string& message : inputs.unreadable)
    std::fprintf(stderr, "profanalyze: %s\n", message.c_str());
  if (inputs.reports.empty()) {
    // One line per file that could not be read, naming it and the problem, is enough.
    if (options.window >= 0) {
      std::fprintf(stderr, "profanalyze: no recording window %d in the inputs\n", options.window);
    } else if (inputs.unreadable.empty()) {
      std::fprintf(stderr, "profanalyze: nothing could be read\n");
    }
    return {1, ""};
  }
  return {0, RenderRead(options, result->views, inputs)};
}

namespace {

absl::Status CheckAnalysisOptions(const SummaryCommandOptions& options) {
  if (absl::Status status = CheckSummaryOptionValues(options); !status.ok()) return status;
  absl::StatusOr<TableQuery> query =
      ParseTableQuery(options.name_regex, options.min_time, options.aggregate_by, options.order_by);
  if (!query.ok()) return query.status();
  return SelectedViews(options).status();
}

}  // namespace

bool CheckPartialOptions(const SummaryCommandOptions& options) {
  const absl::Status status = CheckAnalysisOptions(options);
  if (!status.ok())
    std::fprintf(stderr, "profanalyze: %s\n", std::string(status.message()).c_str());
  return status.ok();
}

TablePolicy TablesPrinted(const SummaryCommandOptions& options, size_t processes) {
  const absl::StatusOr<ViewSet> views = SelectedViews(options);
  const bool views_given = !options.views.empty() || !options.types.empty();
  TablePolicy none;
  if (!views.ok() || (views->size() == 1 && views->count(View::kJob))) return none;
  // JSON lists every process's tables (as Render does), whatever the rank count.
  if (options.format == "json") return {TablePolicy::Kind::kAll};
  if (options.rank >= 0) return {TablePolicy::Kind::kOneRank, options.rank};
  if (processes > kJobViewRanks && !views_given && !options.all_ranks) return none;
  return {TablePolicy::Kind::kAll};
}

std::string AnalysisWords(const SummaryCommandOptions& options) {
  const SummaryCommandOptions defaults;
  std::vector<std::string> words;
  auto text = [&](const char* flag, const std::string& value, const std::string& otherwise) {
    if (value != otherwise) words.push_back(absl::StrCat(flag, " ", value));
  };
  auto number = [&](const char* flag, int value, int otherwise) {
    if (value != otherwise) words.push_back(absl::StrCat(flag, " ", value));
  };
  auto flag = [&](const char* name, bool value, bool otherwise) {
    if (value != otherwise) words.push_back(name);
  };
  text("--sorted-by", options.sorted_by, defaults.sorted_by);
  // The tables chosen, not how they were spelled: --views b,a and --type A are --views a,b.
  const absl::StatusOr<ViewSet> selected = SelectedViews(options);
  if (selected.ok() && (!options.views.empty() || !options.types.empty())) {
    words.push_back(absl::StrCat("--views ", ViewListOf(*selected)));
  } else {
    text("--views", options.views, "");
    text("--type", options.types, "");
  }
  flag(options.op_detail ? "--op-detail" : "--no-op-detail", options.op_detail, defaults.op_detail);
  flag("--group-by-shape", options.group_by_shape, false);
  flag("--self", options.self_time, false);
  flag("--thread-sep", options.thread_sep, false);
  flag("--include-setup", options.include_setup, false);
  number("--top", options.top, defaults.top);
  number("--perf-skip", options.perf_skip, defaults.perf_skip);
  number("--window", options.window, defaults.window);
  text("--min-time", options.min_time, "");
  text("--name", options.name_regex, "");
  text("--aggregate-by", options.aggregate_by, "");
  text("--order-by", options.order_by, "");
  return absl::StrJoin(words, " ");
}

SummaryOutput ProducePartialSummary(const SummaryCommandOptions& options,
                                    const prof::job::JobPartial& partial,
                                    const CollectiveFigures* figures) {
  if (!CheckPartialOptions(options)) return {2, ""};
  const ViewSet views = *SelectedViews(options);
  JobReports ranks = JobReportsOf(partial);
  AnalyzedInputs inputs;
  inputs.reports = std::move(ranks.reports);
  inputs.unreadable = std::move(ranks.unreadable);
  for (const std::string& message : inputs.unreadable)
    std::fprintf(stderr, "profanalyze: %s\n", message.c_str());
  if (inputs.reports.empty()) {
    std::fprintf(stderr, "profanalyze: no rank could be read\n");
    return {1, ""};
  }
  return {0, RenderRead(options, views, inputs, figures)};
}

int RunSummaryCommand(const SummaryCommandOptions& options) {
  const SummaryOutput output = ProduceSummary(options);
  std::fputs(output.text.c_str(), stdout);
  return output.exit_code;
}

}  // namespace prof::analyzer
