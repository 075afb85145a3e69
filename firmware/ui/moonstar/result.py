"""What follows a Moonstar result entered on the device: its check over the
next loop passes, then the last round's screen (or a toast)."""


def submit_later(s, ev, then=None, solve=None):
    """The result `ev` checked in slices, then kept (ui/moonstar/check.py).
    `solve`: the points entry's solve of the set-up (ui/moonstar/solve.py
    Slices, done or under way): its plan is the check's proof."""
    from ui.moonstar.check import Check

    s.app.push(Check(s.app, s, ev, then, solve))


def after_result(s, answer):
    """The result screen when the situation was known, else a toast."""
    last = s.state.get("last") or {}
    if last.get("bidder") is None:
        return
    if last.get("sit"):
        show_best(s, answer)  # says made/failed too, beside the best possible
    else:
        s.app.toast("%s %s %d (%d points)" % (s.names()[last["bidder"]], "made" if last["made"] else "failed",
                                              last["bid"], last["points"]))


def show_best(s, answer=None):
    """The last round's points beside the best possible, then the plan
    (ui/moonstar/best.py); `answer`: the solver's, when the points entry
    already has it. It covers the game screen: the solver needs the room."""
    from ui.moonstar.best import BestPossible

    s.app.push(BestPossible(s.app, s.state["round"], s.state["last"], answer), cover=True)
