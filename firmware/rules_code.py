"""Which of a game's rules modules the device loads with its rules module,
and which it loads ahead, per game name (the header's "game").

The rules core imports its parts where it needs them and knows nothing
of the board. On a Pico a module takes 10-60 ms to load (mostly littlefs
path lookups: bench/import_cost.py), so the device loads a module per
idle loop pass what the next step will import, so that the pass that
takes the step stays short; what a game loads stays with it (App.keep).
The lists are leaf first (a module after those it imports), so
that each import loads one module; tests/firmware/test_ahead_loads.py and
test_start_loads.py check them against what the rules import.

Literals only: this module does no work when it loads. It is loaded for
a game's start (start.Starting) or resume; the game's Session takes its
game's lists and lets the module go, which holds every game's."""

# What a start loads with the rules module (start.Starting): Moonstar's
# legal() and turn() (allowed.py, with the limits it offers), which it
# asks after every event, as the other
# games' rules modules hold theirs; a Pico takes some 50 ms to load them.
# The phases' handlers and tables load when their event comes (or ahead).
# (The PC and the tests keep nothing: the rules core's tests run in 64K.)
KEEP = {
    "moonstar": ("shared_rules.moonstar.limits", "shared_rules.moonstar.allowed"),
}

# What new() loads (a game's options checks), which a device loads ahead
# of a game's start over its loop passes (start.Starting), and lets go
# after it.
NEW = {
    "moonstar": ("shared_rules.util", "shared_rules.moonstar.opts", "shared_rules.moonstar.start"),
    "moons": ("shared_rules.moons.start",),
}

# What a device loads ahead, over its idle loop passes, in each phase:
# the code the phase's usual event loads when applied, and legal() after
# it (Session.ahead, Session.fetch_ahead), so the pass that applies it
# need not load it. Only the set-up's base comes ahead (all its code, held
# between passes beside its screens, was some 11 KB on a Pico's heap). A
# result's comes while the game screen is alone.
_BASE = ("shared_rules.util", "shared_rules.moonstar.board", "shared_rules.moonstar.round")
_RESULT = ("shared_rules.util", "shared_rules.moonstar.board", "shared_rules.moonstar.round",
           "shared_rules.moonstar.bid", "shared_rules.moonstar.result")
AHEAD = {
    "moonstar": {
        "choose": _BASE,
        "first": ("shared_rules.util", "shared_rules.moonstar.board", "shared_rules.moonstar.round",
                  "shared_rules.seeds", "shared_rules.moonstar.first"),
        "setup": _BASE,
        "bidding": ("shared_rules.util", "shared_rules.moonstar.round", "shared_rules.moonstar.bid"),
        "playing": _RESULT,
        "result": _RESULT,
    },
}

# What applying an event loads, leaf first, for the event's own moment to
# load a module a pass before it applies it: the device's check of a
# Moonstar result against a known set-up (ui/moonstar/check.py).
CODE = {
    "moonstar": {"result": _RESULT},
}
