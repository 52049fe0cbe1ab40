"""Prints PYTHONPATH as this process got it, and as a Python child process gets it."""
import os
import subprocess
import sys

import libprof_probe_marker  # noqa: F401  (from the program's own PYTHONPATH entry)

print("PYTHONPATH: %s" % os.environ.get("PYTHONPATH"))
print("libprof armed: %s" % ("libprof" in sys.modules))
child = subprocess.run([sys.executable, "-c", "import os; print(os.environ['PYTHONPATH'])"],
                       capture_output=True, text=True, check=True)
print("child PYTHONPATH: %s" % child.stdout.strip())
