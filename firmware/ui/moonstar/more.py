"""Moonstar's rarer moments on the device, loaded only when one comes up:
choosing the first setter, Game 12's variants, a challenge (Game 10), a
side bet (Game 11), and starting the playing minute once a bid of 70
closed the bidding. Kept out of ui/moonstar/game.py, which stays loaded
for the whole game (the heap is the board's scarcest resource)."""

from ui.dialogs import Ask
from ui.form import Form, seats
from ui.gcommon import ask_one, event


def act(s, key):
    app = s.app
    mv = s.moves()
    names = s.names()
    if key == "choose_setter":
        ask_one(s, "choose_setter", "player", "Who sets up?", seats(names, mv["choose_setter"]["players"]))
    elif key == "variants":
        from ui.moonstar.options import variant_field

        def variants_done(ev):
            ev.pop("np", None)
            event(s, "variants", ev)

        Form(app, lambda ev: variant_field(ev, app), variants_done).start()
    elif key == "close":
        nxt = mv["time_up"].get("next")
        def yes():
            app.pop()
            if s.timer is not None:
                s.timer.pause()
            s.submit({"type": "time_up"})

        app.push(Ask(app, "Closed", "70 closes bidding. Start the %s now?" % ("playing minute" if nxt == "playing" else "side bets"), yes))
    elif key == "challenge":
        ask_one(s, "challenge", "player", "Challenger?", seats(names, mv["challenge"]["players"]))
    elif key == "bet":
        spec = mv["bet"]

        def ask_bet(ev):
            if "player" not in ev:
                return ("player", "Who bets?", "pick", seats(names, spec["players"]), "")
            who = names[ev["player"]]  # a title's (name, words): fitted when drawn
            if "on" not in ev:
                return ("on", (who, " bets on"), "pick", [("made", "made"), ("failed", "failed")], "")
            if "amount" not in ev:
                return ("amount", (who, " bets"), "num", (0, spec["limits"][ev["player"]], 0), "on " + ev["on"])
            return None

        Form(app, ask_bet, lambda ev: event(s, "bet", ev)).start()
