"""The Profiler's schedulers compute paddle's documented states (make_scheduler's API
reference examples, the (start, end) tuple), and make_scheduler stays usable as the
PROF_SCHEDULE string. Pure Python: no agent, no torch."""
import os
import sys
import unittest

sys.path.insert(0, os.path.abspath("agent/python"))  # the helper, as Bazel places it

from libprof import ProfilerState, make_scheduler  # noqa: E402
from libprof._scheduler import scheduler_of  # noqa: E402

LETTERS = {ProfilerState.CLOSED: "C", ProfilerState.READY: "Y", ProfilerState.RECORD: "R",
           ProfilerState.RECORD_AND_RETURN: "E"}


def states(scheduler, steps):
    return "".join(LETTERS[scheduler(step)] for step in range(steps))


class SchedulerTest(unittest.TestCase):
    def test_paddle_example_1(self):
        # "step 0 CLOSED, [1 - 2] READY, [3 - 5] RECORD, data returned at step 5".
        self.assertEqual(states(make_scheduler(closed=1, ready=2, record=3, repeat=1), 8),
                         "CYYRRECC")

    def test_paddle_example_2_repeats_three_times(self):
        # closed=1, ready=3, record=3, repeat=3: windows end at steps 6, 13 and 20.
        text = states(make_scheduler(closed=1, ready=3, record=3, repeat=3), 23)
        self.assertEqual(text, "CYYYRRE" * 3 + "CC")

    def test_skip_first_and_the_test_schedule(self):
        self.assertEqual(states(make_scheduler(closed=1, ready=1, record=3, repeat=2), 12),
                         "CYRRECYRRECC")
        self.assertEqual(states(make_scheduler(closed=0, ready=0, record=2, skip_first=2), 6),
                         "CCRERE")

    def test_tuple_records_start_to_end_minus_one(self):
        self.assertEqual(states(scheduler_of((2, 5)), 7), "CYRRECC")
        self.assertEqual(states(scheduler_of((0, 2)), 4), "RECC")
        with self.assertRaises(ValueError):
            scheduler_of((5, 5))

    def test_default_records_every_step(self):
        self.assertEqual(states(scheduler_of(None), 3), "RRR")

    def test_still_the_prof_schedule_string(self):
        scheduler = make_scheduler(closed=1, ready=1, record=3, repeat=2)
        self.assertEqual(scheduler, "skip_first=0,closed=1,ready=1,record=3,repeat=2")
        os.environ["PROF_SCHEDULE_TEST"] = scheduler  # os.environ takes it: it is a str
        self.assertEqual(os.environ.pop("PROF_SCHEDULE_TEST"), scheduler)
        self.assertEqual(str(scheduler), "skip_first=0,closed=1,ready=1,record=3,repeat=2")

    def test_bad_arguments(self):
        with self.assertRaises(ValueError):
            make_scheduler(closed=1, ready=1, record=0)
        with self.assertRaises(ValueError):
            make_scheduler(closed=-1, ready=1, record=1)


if __name__ == "__main__":
    unittest.main()
