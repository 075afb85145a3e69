"""What the Moonstar game screen's menus offer: the actions the rules
allow now (OK; ui/play.py), the question that menu asks, and the game
menu's own items (BACK; ui/gmenu.py). Loaded with the game screen
(ui/moonstar/game.py), which offers these as its own."""

from ui.gcommon import offered

# legal move|menu label|action key, in menu order (gcommon.offered)
ACTIONS = """roll_for_setter|Roll for setter|roll
choose_setter|Choose setter|choose_setter
variants|Choose variants|variants
setup|Device rolls|setup_seed
setup|Enter set-up|setup_enter
setup|Skip set-up|setup_skip
bid|Bid|bid
challenge|Challenge|challenge
bet|Side bet|bet
start_play|Start play|start_play
result|Enter result|result"""


def actions(s):
    """The actions the rules allow now, always in ACTIONS' order (a hand
    that knows a menu's rows is never sent to the wrong one: the likely
    answer moves the cursor, likely()); once a bid of 70 closed the
    bidding, the playing minute (or the side bets) last."""
    mv = s.moves()
    acts = offered(mv, ACTIONS)
    st = s.state
    tu = mv.get("time_up")
    if st["phase"] == "bidding" and tu is not None and tu.get("closed"):
        acts.append(("Start play" if tu.get("next") == "playing" else "Side bets", "close"))
    return acts


def likely(s):
    """The action the menu's cursor starts on, or None for the first:
    after a round set up on the table (the device not told), skipping the
    set-up again."""
    st = s.state
    last = st.get("last")
    if st["phase"] == "setup" and last is not None and last.get("sit") is None:
        return "setup_skip"
    return None


def question(s, name):
    """The action menu's title: what it asks, and of whom."""
    st = s.state
    ph = st["phase"]
    if ph == "first":
        return "Who sets up?"
    if ph == "setup":
        return (name(s, st["setter"]), " sets up:")  # title_bar fits the name
    if ph == "bidding":
        tu = s.moves().get("time_up") or {}
        return "Bids closed:" if tu.get("closed") else "Which call?"
    if ph == "betting":
        return "Bet or play?"
    return (name(s, st["bidder"]), " result?")


def _best_known(s):
    """The last round was bid on and its situation is known."""
    last = s.state.get("last")
    return bool(last and last.get("sit") and last.get("bidder") is not None)


def menu_items(s):
    st = s.state
    items = [("Situation", "sit")] if st.get("sit") else []
    if st["round"] == 0 and st.get("rolls"):
        items.append(("Setter roll", "rolls"))
    if "fix_situation" in s.moves():
        items.append(("Correct set-up", "fix"))
    if _best_known(s):
        items.append(("Last round", "best"))
    return items


def menu_action(s, key):
    """The game menu's own items; False for an action's key (the game
    screen's act() does those: this module must not import it back)."""
    if key == "sit":
        from ui.moonstar.situation import show

        show(s)
    elif key == "best":
        from ui.moonstar.result import show_best

        show_best(s)
    elif key == "rolls":
        from ui.moonstar.roll import RollOff

        r = RollOff(s.app, s.state)
        r.held = True  # asked for: stays until OK or BACK
        s.app.push(r)
    else:
        return False
    return True
