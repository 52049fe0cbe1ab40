"""make_scheduler: paddle.profiler's scheduler arguments, as the PROF_SCHEDULE string the
agent reads at start (so it is set in the environment of the program to profile)."""


def make_scheduler(*, closed, ready, record, repeat=0, skip_first=0):
    """Returns e.g. "skip_first=10,closed=0,ready=1,record=5,repeat=0".

    Steps are skipped (skip_first), then each cycle is `closed` steps off, `ready` steps
    warming up and `record` steps recorded; `repeat` cycles (0: forever)."""
    values = {"skip_first": skip_first, "closed": closed, "ready": ready,
              "record": record, "repeat": repeat}
    for name, value in values.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError("make_scheduler: %s must be an integer >= 0, not %r"
                             % (name, value))
    if record < 1:
        raise ValueError("make_scheduler: record must be > 0")
    return ",".join("%s=%d" % item for item in values.items())
