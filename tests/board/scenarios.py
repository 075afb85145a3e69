"""Button scripts played the same way on the emulated Pico and on the
unix-port simulator. Each takes a board with `.emu` (the panel) and
`.press(name, hold, after)`, and drives the menus by what the panel shows
(tests/sim/simtools.py), so the same presses reach both boards.

They are the shortest plays that cover what the tier proves: one Moonstar
round from the setter to its result (a table set-up, so no device roll),
and one Shoot the Moon hand of five tricks, which ends its game."""

import simtools as st


def moonstar_to_bid(b):
    """Home -> a 2-player Game 1, P1 sets up at the table, P1 bids 20:
    the bidding minute is running."""
    moonstar_start(b)
    moonstar_started_to_bid(b)


def moonstar_start(b):
    """Home -> a 2-player Game 1 whose first setter is P1."""
    st.start_two_player_moonstar(b, "1 Basic", "P1")


def moonstar_started_to_bid(b):
    """From moonstar_start: P1 sets up at the table, P1 bids 20."""
    b.press("ok")  # Set-up
    st.choose(b, "Skip set-up")
    b.press("ok")  # Bids: the only legal action in Game 1
    st.choose(b, "P1")
    b.press("ok")  # the lowest bid, 20


def moonstar_finish_round(b):
    """From the running bidding minute: time up from the menu, play, the
    points default to the bid; the round's result is on the screen."""
    b.press("back")
    st.choose(b, "Time up now")
    b.press("ok")  # Play
    b.press("ok")  # points: the bid


def moonstar_round(b):
    moonstar_to_bid(b)
    moonstar_finish_round(b)


def shoot_the_moon_hand(b):
    """Home -> Shoot the Moon for 3, chips to win 3, seats P1 P2 P3; five
    tricks: P2 wins the first with a big moon, P1 the other four. The hand
    ends the game (P2 has 4 chips), so a sync stores it finished."""
    st.start_shoot_the_moon(b)
    shoot_the_moon_tricks(b)


def shoot_the_moon_tricks(b):
    """The hand's five tricks, from the game's start (shoot_the_moon_hand)."""
    b.press("ok")  # P2 won trick 1
    st.choose(b, "1 BIG", exact=True)
    st.wait_toast(b)
    for _ in range(4):
        st.point_at(b, "P1")
        b.press("ok")
        st.choose(b, "no moons")
