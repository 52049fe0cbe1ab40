"""Prints the modules loaded when the program starts, one per line after "modules:"; with
--torch, imports torch first and prints whether the helper's hooks went in."""
import sys

if "--torch" in sys.argv:
    import torch  # noqa: F401
    print("hooks installed: %s" % ("libprof._torch" in sys.modules))
print("modules: " + " ".join(sorted(sys.modules)))
