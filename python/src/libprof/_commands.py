"""The wheel's console scripts: `profanalyze` and `libprof-run`.

    libprof-run [options] [--] COMMAND [ARGUMENT...]

runs COMMAND under the agent, as `nsys profile` does: LD_PRELOAD gets this package's
libprof.so (after what LD_PRELOAD already holds), the options become PROF_* variables,
and the launcher execs COMMAND (nothing stays in between), so it composes with launchers:

    libprof-run -o traces -- python train.py
    srun libprof-run -o traces -- python train.py
    torchrun --nproc_per_node 8 --no_python libprof-run -o traces -- python train.py

Each process of the job records its own files (the worker name carries the rank where
the agent finds one); `profanalyze traces/` reads them together.
"""
import argparse
import os
import sys

# option -> (PROF_* variable, help); "flag" options set the variable to 1.
_VALUES = [
    (("-o", "--output-dir"), "PROF_OUTPUT_DIR", "folder for the trace files (default ./profiler_log)"),
    (("-s", "--schedule"), "PROF_SCHEDULE",
     "steps to record: skip_first=N,closed=N,ready=N,record=N,repeat=N (paddle), "
     "wait/warmup/active (torch), START:END, or off (default: every step)"),
    (("--activities",), "PROF_ACTIVITIES", "comma list of cuda, kernel, memcpy, memset, sync, nccl, nvtx, memory, or all"),
    (("--worker-name",), "PROF_WORKER_NAME", "file-name prefix of the trace files"),
    (("--step-marker",), "PROF_STEP_MARKER", "step boundaries at API calls or kernels: api:NAME[:N], kernel:GLOB"),
    (("--python-ops",), "PROF_PYTHON_OPS", "PyTorch operators: 1 (ATen), python, 0"),
    (("--cupti-lib",), "PROF_CUPTI_LIB", "path of libcupti"),
    (("--buffer-mb",), "PROF_BUFFER_MB", "memory for events in flight, MiB"),
    (("--steps-per-file",), "PROF_STEPS_PER_FILE", "steps per trace file (0: one file per window)"),
    (("--log-level",), "PROF_LOG_LEVEL", "error, warn, info, debug"),
]
_FLAGS = [
    (("--timer-only",), "PROF_TIMER_ONLY", "only steps and Dataloader ranges, no CUPTI"),
    (("--shapes",), "PROF_SHAPES", "record operator input shapes and dtypes"),
    (("--stacks",), "PROF_STACKS", "native call stacks of launch and allocation sites"),
    (("--flight",), "PROF_FLIGHT", "the NCCL flight recorder (hang dumps)"),
]


def _parser():
    parser = argparse.ArgumentParser(
        prog="libprof-run",
        usage="libprof-run [options] [--] COMMAND [ARGUMENT...]",
        description="Runs COMMAND with libprof.so preloaded (LD_PRELOAD) and the options as "
                    "PROF_* variables (docs/recording.md lists them all), then analyze with "
                    "`profanalyze OUTPUT_DIR`.")
    for names, variable, text in _VALUES:
        parser.add_argument(*names, dest=variable, metavar="VALUE", help="%s (%s)" % (text, variable))
    for names, variable, text in _FLAGS:
        parser.add_argument(*names, dest=variable, action="store_const", const="1",
                            help="%s (%s=1)" % (text, variable))
    parser.add_argument("-e", "--env", action="append", default=[], metavar="PROF_NAME=VALUE",
                        help="any other PROF_* variable (repeatable)")
    parser.add_argument("--print-env", action="store_true",
                        help="print the variables it would set, as shell assignments, and run nothing")
    parser.add_argument("command", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def _split(arguments):
    """(options, command): the command follows the first `--`, or the first word that is
    no option (argparse stops there)."""
    if "--" in arguments:
        at = arguments.index("--")
        return arguments[:at], arguments[at + 1:]
    return arguments, None


def run_environment(arguments, environment, library):
    """(variables to set, command) for libprof-run's `arguments`; raises SystemExit (argparse)
    on a bad option."""
    parser = _parser()
    options, command = _split(list(arguments))
    parsed = parser.parse_args(options)
    if command is None:
        command = parsed.command
    elif parsed.command:
        parser.error("unexpected %s before --" % " ".join(parsed.command))
    variables = {}
    for _, variable, _ in _VALUES + _FLAGS:
        value = getattr(parsed, variable)
        if value is not None:
            variables[variable] = value
    for assignment in parsed.env:
        name, equals, value = assignment.partition("=")
        if not equals or not name.startswith("PROF_"):
            parser.error("--env takes PROF_NAME=VALUE, not %r" % assignment)
        variables[name] = value
    preloaded = [entry for entry in environment.get("LD_PRELOAD", "").replace(" ", ":").split(":") if entry]
    if library not in preloaded:
        preloaded.append(library)
    variables["LD_PRELOAD"] = ":".join(preloaded)
    if not command and not parsed.print_env:
        parser.error("no command to run (libprof-run [options] -- COMMAND ...)")
    return variables, command, parsed.print_env


def run(arguments=None):
    """libprof-run: see the module's documentation."""
    from libprof._paths import packaged_library, packaged_library_candidates
    library = packaged_library()
    if library is None:
        sys.stderr.write("libprof-run: no libprof.so beside the libprof package (looked at %s)\n"
                         % ", ".join(packaged_library_candidates()))
        return 127
    variables, command, print_only = run_environment(
        sys.argv[1:] if arguments is None else arguments, os.environ, library)
    if print_only:
        import shlex
        for name, value in variables.items():
            sys.stdout.write("%s=%s\n" % (name, shlex.quote(value)))
        return 0
    os.environ.update(variables)
    try:
        os.execvp(command[0], command)
    except OSError as error:
        sys.stderr.write("libprof-run: cannot run %s: %s\n" % (command[0], error.strerror))
        return 127


def profanalyze(arguments=None):
    """profanalyze: the analyzer program that came with this package, with these arguments."""
    from libprof._paths import packaged_profanalyze
    binary = packaged_profanalyze()
    if binary is None:
        sys.stderr.write("profanalyze: the libprof package at %s has no profanalyze program\n"
                         % os.path.dirname(os.path.abspath(__file__)))
        return 127
    os.execv(binary, [binary] + list(sys.argv[1:] if arguments is None else arguments))
