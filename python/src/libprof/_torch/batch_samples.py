"""The sample count of a DataLoader batch: the first dimension of its first tensor-like
value (a tensor, or the first element of a tuple, list or dict of them). None when the
batch holds nothing with a shape."""

_MAX_DEPTH = 3


def samples_in(batch, depth=0):
    shape = getattr(batch, "shape", None)
    if shape is not None:
        return int(shape[0]) if len(shape) > 0 else None
    if depth >= _MAX_DEPTH:
        return None
    if isinstance(batch, (list, tuple)) and batch:
        return samples_in(batch[0], depth + 1)
    if isinstance(batch, dict) and batch:
        return samples_in(next(iter(batch.values())), depth + 1)
    return None
