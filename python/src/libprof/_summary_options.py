"""The options of `profanalyze PATH...` (analyzer/cli/summary_command.h), once: by long
name with "_" for "-" ("self" for --self; op_detail=False is --no-op-detail), each with the
command's default. The analyzer's extension takes the same names as keywords
(summary_options()); _analysis_cli turns them into the command's arguments, and _analysis
refuses any other name before either backend sees it. //analyzer/python:analysis_test
checks this table against `profanalyze --help` and the extension."""

# name -> the command's default (its type is the option's: bool for the flags).
SUMMARY_OPTIONS = {
    "sorted_by": "CPUTotal",
    "views": "",
    "op_detail": True,
    "thread_sep": False,
    "group_by_shape": False,
    "self": False,
    "time_unit": "ms",
    "top": 0,
    "perf_skip": -1,
    "include_setup": False,
    "rank": -1,
    "all_ranks": False,
    "format": "text",
    "threads": 0,
    "window": -1,
    "type": "",
    "min_time": "",
    "name": "",
    "aggregate_by": "",
    "order_by": "",
}


def check_names(options):
    """Raises ValueError, as the extension does, for a name that is not an option."""
    for name in options:
        if name not in SUMMARY_OPTIONS:
            raise ValueError("analyze: unknown option '%s'" % name)


def command_arguments(options):
    """`options` (name -> value) as profanalyze's arguments; values equal to the command's
    default are left out (--perf-skip=-1 would be refused: -1 is "automatic")."""
    check_names(options)
    arguments = []
    for name, value in options.items():
        default = SUMMARY_OPTIONS[name]
        if value is None or value == default:
            continue
        flag = "--" + name.replace("_", "-")
        if isinstance(default, bool):
            arguments.append(flag if value else "--no-" + name.replace("_", "-"))
        else:
            # --NAME=VALUE: a value starting with '-' (--order-by=-calls) stays a value.
            arguments.append("%s=%s" % (flag, value))
    return arguments
