"""The Profiler's schedulers compute paddle's documented states (make_scheduler's API
reference examples, the (start, end) tuple), and make_scheduler stays usable as the
PROF_SCHEDULE string; and the arithmetic make_scheduler uses without an agent agrees with
the agent's (prof_schedule_state, the libprof.so built beside this package, taken as truth)
over a table of schedules. No torch."""
import ctypes
import itertools
import os
import sys
import unittest

sys.path.insert(0, os.path.abspath("agent/python"))  # the helper, as Bazel places it

from libprof import ProfilerState, _capi, make_scheduler  # noqa: E402
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


class AgreesWithTheAgentTest(unittest.TestCase):
    """Every schedule of the table, steps 0..39: the agent's state (truth), the package's
    own arithmetic, and what the scheduler answers with the agent bound."""

    def setUp(self):
        library = ctypes.CDLL(os.path.abspath("agent/libprof.so"), mode=os.RTLD_LOCAL)
        self.functions = _capi._bind(library, "agent/libprof.so")
        self.assertIsNotNone(self.functions)

    def tearDown(self):
        _capi._install(None)  # the other tests run the package without an agent

    def test_the_table(self):
        schedules = [make_scheduler(skip_first=skip, closed=closed, ready=ready, record=record,
                                    repeat=repeat)
                     for skip, closed, ready, record, repeat in itertools.product(
                         (0, 3), (0, 1, 4), (0, 1, 2), (1, 2, 5), (0, 1, 3))]
        schedules += [scheduler_of((start, end)) for start, end in ((0, 1), (0, 3), (1, 2),
                                                                    (2, 5), (7, 9))]
        compared = 0
        for scheduler in schedules:
            agent = [self.functions["schedule_state"](scheduler.encode(), step)
                     for step in range(40)]
            own = [scheduler.without_agent(step).value for step in range(40)]
            self.assertEqual(own, agent, scheduler)
            compared += len(agent)
        self.assertEqual(len(schedules), 167)
        self.assertEqual(compared, 167 * 40)
        _capi._install(self.functions)
        self.assertEqual([schedules[-1](step) for step in range(11)],
                         [ProfilerState.CLOSED] * 6 + [ProfilerState.READY]
                         + [ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN]
                         + [ProfilerState.CLOSED] * 2)  # (7, 9): hand-worked, via the agent

    def test_the_agent_refuses_what_it_cannot_parse(self):
        self.assertEqual(self.functions["schedule_state"](b"record=0", 0), -1)


if __name__ == "__main__":
    unittest.main()
