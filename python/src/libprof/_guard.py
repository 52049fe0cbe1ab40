"""Keeps the helper from ever breaking the program.

The hooks run the helper's own bookkeeping through `guarded`. The first failure there is
reported once on stderr, every hook registered with `on_failure` is removed, and the
program goes on: the hooks' wrappers check `active` and from then on only call through.
Exceptions raised by the program's own code are never caught here.
"""
import sys

active = True
_undo_actions = []


def on_failure(undo):
    """Registers a callable that removes hooks when the helper fails."""
    _undo_actions.append(undo)


def guarded(function, *arguments):
    """Calls function(*arguments); on failure disables the helper and returns None."""
    try:
        return function(*arguments)
    except Exception as error:  # the helper's failure must not become the program's
        fail(getattr(function, "__qualname__", repr(function)), error)
        return None


def fail(where, error):
    global active
    if not active:
        return
    active = False
    _report(where, error)
    while _undo_actions:
        undo = _undo_actions.pop()
        try:
            undo()
        except Exception:
            pass  # the wrappers left in place only call through now


def _report(where, error):
    try:
        sys.stderr.write(
            "libprof: the Python helper failed in %s (%s: %s); its hooks are removed and "
            "the program goes on\n" % (where, type(error).__name__, error))
        sys.stderr.flush()
    except Exception:
        pass  # no stderr: stay silent rather than fail
