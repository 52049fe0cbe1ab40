"""Attributes of PyTorch's classes and modules replaced by wrappers, so that all of them
can be put back when the helper fails. An attribute that someone else replaced after us
is left alone (our wrapper then only calls through, see _guard.active)."""
import functools


class Patches:
    def __init__(self):
        self._replaced = []  # (owner, name, original, wrapper)

    def wrap(self, owner, name, make_wrapper):
        """Replaces owner.name by make_wrapper(original), which must call original."""
        original = owner.__dict__[name]
        wrapper = functools.wraps(original)(make_wrapper(original))
        setattr(owner, name, wrapper)
        self._replaced.append((owner, name, original, wrapper))
        return wrapper

    def restore_all(self):
        while self._replaced:
            owner, name, original, wrapper = self._replaced.pop()
            if owner.__dict__.get(name) is wrapper:
                setattr(owner, name, original)
