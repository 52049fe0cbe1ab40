"""Test support: runs Python programs with and without libprof.so preloaded, and reads
what they recorded (trace_facts for the raw trace, profanalyze for the summaries).

Paths are the test's runfiles (the working directory of a Bazel test)."""
import json
import os
import subprocess
import sys
import tempfile

PYTHON = "/usr/bin/python3"
_HERE = "python/tests"


def runfile(path):
    return os.path.abspath(path)


def program(name):
    return runfile(os.path.join(_HERE, "programs", name))


def helper_folder():
    """The helper package as Bazel places it, beside libprof.so."""
    return runfile("agent/python")


def require_torch(test_case):
    probe = subprocess.run([PYTHON, "-c", "import torch"], capture_output=True)
    if probe.returncode != 0:
        test_case.fail("%s cannot import torch: install python3-torch (scripts/setup.sh)"
                       % PYTHON)


class Run:
    def __init__(self, completed, output_dir):
        self.returncode = completed.returncode
        self.stdout = completed.stdout
        self.stderr = completed.stderr
        self.output_dir = output_dir

    def helper_failures(self):
        return [line for line in self.stderr.splitlines()
                if line.startswith("libprof: the Python helper")]


def run_python(arguments, agent=True, environment=None, timeout=180):
    """Runs PYTHON with `arguments`; under the agent when `agent`, its traces in a fresh
    folder (Run.output_dir)."""
    output_dir = tempfile.mkdtemp(prefix="traces_", dir=os.environ.get("TEST_TMPDIR"))
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("PROF_") and key not in ("LD_PRELOAD", "PYTHONPATH")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # keep the runfiles clean
    if agent:
        env.update({
            "LD_PRELOAD": runfile("agent/libprof.so"),
            "PROF_OUTPUT_DIR": output_dir,
            "PROF_CUPTI_LIB": runfile("testdata/sim/libcupti.so.13"),
        })
    env.update(environment or {})
    completed = subprocess.run([PYTHON] + list(arguments), env=env, capture_output=True,
                               text=True, timeout=timeout, cwd=output_dir)
    if completed.returncode != 0:
        sys.stderr.write(completed.stderr)
    return Run(completed, output_dir)


def trace_facts(folder):
    """{"files", "steps", "samples", "ranges", "ranges_by_kind", "losses"} of a folder."""
    text = subprocess.run([runfile(_HERE + "/trace_facts"), folder], capture_output=True,
                          text=True, check=True).stdout
    return json.loads(text)


def analyzer_tables(folder):
    """The tables profanalyze prints for a folder (its JSON), of the first process."""
    completed = subprocess.run([runfile("analyzer/cli/profanalyze"), folder, "--format", "json"],
                               capture_output=True, text=True, check=True)
    return json.loads(completed.stdout)["processes"][0]["tables"]


def chrome_events(folder):
    """The complete ("X") events of `profanalyze export` for a folder: name, ts, dur (us)."""
    completed = subprocess.run([runfile("analyzer/cli/profanalyze"), "export", folder, "-o", "-"],
                               capture_output=True, text=True, check=True)
    events = json.loads(completed.stdout)
    events = events["traceEvents"] if isinstance(events, dict) else events
    return [event for event in events if event.get("ph") == "X"]


def chrome_export(paths):
    """The JSON `profanalyze export PATHS -o -` writes."""
    completed = subprocess.run([runfile("analyzer/cli/profanalyze"), "export"] + list(paths) + ["-o", "-"],
                               capture_output=True, text=True, check=True)
    return json.loads(completed.stdout)


PHASES = ("Dataloader", "Forward", "Backward", "Optimization")


def phase_counts(facts):
    return {name: facts["ranges"].get(name, 0) for name in PHASES}
