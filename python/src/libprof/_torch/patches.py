"""Attributes of PyTorch's classes and modules replaced by wrappers, so that all of them
can be put back when the helper fails. An attribute that someone else replaced after us
is left alone (our wrapper then only calls through, see _guard.active)."""
import functools


class Patches:
    def __init__(self):
        self._replaced = []  # (owner, name, original, wrapper)
        self._quiet_off = []  # the entries of _replaced taken out during quiet steps

    def wrap(self, owner, name, make_wrapper, off_while_quiet=False):
        """Replaces owner.name by make_wrapper(original), which must call original. With
        off_while_quiet the original is put back for quiet steps (_steps.quiet): wrappers
        that only find phases, which a quiet step does not record (the one on every
        nn.Module call is most of the helper's cost there, docs/benchmarks.md)."""
        original = owner.__dict__[name]
        wrapper = functools.wraps(original)(make_wrapper(original))
        setattr(owner, name, wrapper)
        self._replaced.append((owner, name, original, wrapper))
        if off_while_quiet:
            self._quiet_off.append((owner, name, original, wrapper))
        return wrapper

    def quiet_changed(self, quiet):
        """Takes the off_while_quiet wrappers out (quiet) or puts them back; an attribute
        someone else replaced meanwhile is left alone. Only where quiet changes: setting a
        class attribute invalidates the type caches of every subclass."""
        for owner, name, original, wrapper in self._quiet_off:
            current, wanted = (wrapper, original) if quiet else (original, wrapper)
            if owner.__dict__.get(name) is current:
                setattr(owner, name, wanted)

    def restore_all(self):
        self._quiet_off = []
        while self._replaced:
            owner, name, original, wrapper = self._replaced.pop()
            if owner.__dict__.get(name) is wrapper:
                setattr(owner, name, original)
