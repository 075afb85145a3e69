"""What a device loads ahead in each Moonstar phase (firmware/rules_code.py:
AHEAD, Session.fetch_ahead), and what an event's own moment loads a
module a pass before it applies it (CODE: the result's check): checked
against what the rules really import. At each phase of a scripted round,
with only the rules module and what a start loads with it (KEEP) loaded
(as after a start or a resume: no phase's code yet), each listed module is imported in turn and must
load itself alone (the lists are leaf first: a Pico loads one module a
pass), then the event's CODE; then the phase's usual event and legal()
after it must load no rules module of their own, but what REST says."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

# What a result's check may load beyond the list when no plan comes with
# it (the device's points entry passes the solve's plan: plan.py alone).
SEARCH = {"shared_rules.moonstar.solver", "shared_rules.moonstar.plan", "shared_rules.moonstar.piles",
          "shared_rules.moonstar.piles_plan", "shared_rules.moonstar.piles_start", "shared_rules.moonstar.pairs", "shared_rules.moonstar.assign"}

# What a phase's event still loads itself: the set-up's own code (its
# lists hold only its base: the rest held between passes would cost heap
# beside the set-up's screens).
REST = {"setup": {"shared_rules.moonstar.check", "shared_rules.moonstar.setup"}}

ROUND = [
    ("first", {"type": "roll_for_setter", "rolls": [[6, 5, 4, 3], [6, 6, 6, 1], [2, 2, 2, 2]]}),
    ("setup", {"type": "setup", "planets": [[0, 10], [3, 5], [6, 10], [9, 5]], "moons": [1, 2, 4, 5, 7, 8, 11],
               "dice": [1, 2, 2, 1, 1, 1, 1]}),
    ("bidding", {"type": "bid", "player": 0, "amount": 30}),
    ("bidding", {"type": "time_up"}),
    ("playing", {"type": "result", "points": 20}),
]


def _bare():
    from rules_code import KEEP

    keep = {"shared_rules.moonstar"} | set(KEEP["moonstar"])
    for k in [k for k in sys.modules if k.startswith("shared_rules.moonstar.") or k == "shared_rules.util"]:
        if k not in keep:
            del sys.modules[k]


def _fresh(check):
    """Run `check` of this file in a fresh interpreter: it unloads and
    loads the rules' modules, which must not touch this one's."""
    code = "import sys; sys.path[:0] = [%r, %r, %r]; import test_ahead_loads as t; t.%s(); print('ok')" % (
        str(ROOT), str(ROOT / "firmware"), str(HERE), check)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr


def test_each_phase_loads_ahead_what_its_event_needs_one_module_at_a_time():
    _fresh("check_phases")


def test_every_listed_module_exists_and_each_list_is_leaf_first():
    _fresh("check_lists")


def check_phases():
    import shared_rules
    from rules_code import AHEAD, CODE, KEEP

    rules = shared_rules.get_game("moonstar")
    for name in KEEP["moonstar"]:
        __import__(name)
    state = rules.new(["Ann", "Bob", "Cy"], {})
    seen = set()
    for phase, event in ROUND:
        assert state["phase"] == phase
        _bare()
        for name in AHEAD["moonstar"].get(phase, ()) + CODE["moonstar"].get(event["type"], ()):
            before = set(sys.modules)
            __import__(name)
            assert [k for k in sys.modules if k not in before] in ([name], []), (phase, name)
        before = set(sys.modules)
        state = rules.apply(state, event)
        rules.legal(state)
        more = {k for k in sys.modules if k not in before and k.startswith("shared_rules.")}
        more -= {"shared_rules.places"}  # the standings' placings, after a result (a Match's, not the round's)
        if event["type"] == "result":
            more -= SEARCH
        assert more == REST.get(phase, set()), (phase, sorted(more))
        seen.add(phase)
    assert seen == {"first", "setup", "bidding", "playing"}


def check_lists():
    import shared_rules
    import shared_rules.ticks  # noqa: F401 (the device's own, from its boot)
    from rules_code import AHEAD, CODE, KEEP

    shared_rules.get_game("moonstar")
    for name in KEEP["moonstar"]:  # loaded with the rules, as a device's start does
        __import__(name)
    for phase, names in list(AHEAD["moonstar"].items()) + list(CODE["moonstar"].items()):
        _bare()
        for name in names:
            before = set(sys.modules)
            __import__(name)
            got = [k for k in sys.modules if k not in before]
            assert got in ([name], []), (phase, name, got)
