"""Moonstar's events and phases as players say them, for the rules'
messages (a refusal reaches a player as a toast, and no internal name
should). Loaded only when a message needs them."""


def event_words(kind):
    """An event type in words ("time_up": "time up")."""
    return {"setup": "set-up", "start_play": "start of play", "fix_situation": "set-up correction",
            "roll_for_setter": "roll for setter", "choose_setter": "choice of setter",
            "bet": "side bet"}.get(kind, kind.replace("_", " "))


def phase_words(phase):
    """A phase in words ("setup": "the set-up")."""
    return {"first": "the choice of the first setter", "choose": "the choice of variants",
            "setup": "the set-up", "bidding": "the bidding", "betting": "the side bets",
            "playing": "the play", "result": "the result entry"}.get(phase, phase)


def wrong_phase(state, kind, events):
    """The refusal of an event out of its phases, naming what is legal
    instead from the rules' table of `events` (legal() may not be loaded),
    in these words: "no bid now: this is the set-up (now: set-up)"."""
    phase = state["phase"]
    cfg = state["cfg"] or {}
    now = []
    for row in events:
        k = row[0]
        if phase in row[1] and not (k == "challenge" and not cfg.get("challenges")):
            if not (k == "time_up" and phase == "playing" and not cfg.get("timed_play")):
                now.append(event_words(k))
    now.sort()
    return "no %s now: this is %s (now: %s)" % (event_words(kind), phase_words(phase), ", ".join(now))
