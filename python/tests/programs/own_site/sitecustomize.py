"""A program's own sitecustomize: it must still run when libprof's hides it."""
import builtins

builtins.OWN_SITECUSTOMIZE_RAN = True
