"""The helper costs a Python process next to nothing until the program imports torch (or
uses the libprof API): its sitecustomize loads only the package and two small modules,
none of ctypes, contextlib or collections (issue 11: `python3 -c pass` was 16-18 ms
slower under the agent). Importing torch then brings the hooks in."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

# What the sitecustomize may add before torch: its own package, the multiprocessing-child
# note and the import hook (libprof/_autostart.py). The flags are asked from the agent
# (_flags, through ctypes) only once torch is imported.
CHEAP_STAGE = {"sitecustomize", "libprof", "libprof._autostart", "libprof._process"}


def modules(run):
    for line in run.stdout.splitlines():
        if line.startswith("modules: "):
            return set(line[len("modules: "):].split())
    raise AssertionError("no module list in %r\n%s" % (run.stdout, run.stderr))


class LazyStartTest(unittest.TestCase):
    def test_before_torch_only_the_import_hook(self):
        program = [agent_runner.program("report_modules.py")]
        plain = agent_runner.run_python(program, agent=False)
        profiled = agent_runner.run_python(program)
        self.assertEqual(profiled.returncode, 0, profiled.stderr)
        added = modules(profiled) - modules(plain)
        self.assertLessEqual(added, CHEAP_STAGE)
        self.assertIn("libprof._autostart", added)  # armed, not off
        for heavy in ("ctypes", "libprof._capi", "libprof._flags", "libprof._torch"):
            self.assertNotIn(heavy, added)

    def test_start_reads_bytecode_not_source(self):
        """The build ships the helper's bytecode (python/compile_bytecode.py): with
        a read-only bazel-bin and PYTHONDONTWRITEBYTECODE (agent_runner sets it), the
        modules the sitecustomize loads come from it, not compiled at every start."""
        run = agent_runner.run_python(["-v", "-c", "pass"])
        self.assertEqual(run.returncode, 0, run.stderr)
        loaded = {line.rsplit("/", 1)[-1].split(".")[0].rstrip("'")
                  for line in run.stderr.splitlines()
                  if line.startswith("# code object from ") and ".pyc" in line
                  and "/agent/python/" in line}
        for module in CHEAP_STAGE:
            file_name = "__init__" if module == "libprof" else module.rsplit(".", 1)[-1]
            self.assertIn(file_name, loaded, run.stderr[-3000:])

    def test_importing_torch_installs_the_hooks(self):
        agent_runner.require_torch(self)
        run = agent_runner.run_python([agent_runner.program("report_modules.py"), "--torch"])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("hooks installed: True", run.stdout)
        self.assertIn("libprof._capi", modules(run))


if __name__ == "__main__":
    unittest.main()
