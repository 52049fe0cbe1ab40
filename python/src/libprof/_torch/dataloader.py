"""Dataloader: each batch fetched from a DataLoader, in the training process (workers
produce batches; the fetch in the training process is the wait for them). The batch's
sample count and the fetch time feed the step boundary and step_info."""
import time

from libprof import _guard, _steps
from libprof._torch import phases
from libprof._torch.batch_samples import samples_in


def install(torch, patches):
    iterator_class = torch.utils.data.dataloader._BaseDataLoaderIter
    patches.wrap(iterator_class, "__next__", _make_next)


def _make_next(original):
    current = phases.current

    def next_batch(self):
        if current.open or not phases.hooks_live():
            return original(self)
        started = time.perf_counter()
        batch = phases.run_in_phase("Dataloader", original, (self,), {})
        _guard.guarded(_fetched, self, batch, started)
        return batch

    return next_batch


def _fetched(iterator, batch, started):
    seconds = time.perf_counter() - started
    dataset = getattr(iterator, "_dataset", None)
    _steps.boundaries.batch_fetched(dataset, samples_in(batch), started, seconds)
