"""The app serves every request already waiting on the serial link in one
loop pass (firmware/app.py, App.serial), not one request per pass: a sync
is request after request, and one per 20 ms pass capped it near 1,300
events/s. Under the virtual clock a pass's time budget never runs out, so
the count of replies after one pass shows it exactly."""

import simtools as st
from shared_rules.wire import encode
from shared_rules.wire_read import decode


def replies(b):
    return [decode(line) for line in b.serial_text().splitlines() if line.startswith("{")]


def test_waiting_requests_are_all_answered_in_one_pass(tmp_path):
    b = st.new_board(tmp_path)
    try:
        b.advance(100)
        b.send_serial(encode({"s": 1, "c": "hello"}))
        b.tick()  # loads the protocol, answers
        assert [r["s"] for r in replies(b)] == [1]
        burst = b"".join(encode({"s": s, "c": c}) for s, c in ((2, "hello"), (3, "ls"), (4, "get"), (5, "nope"),
                                                               (6, "hello"), (7, "ls")))
        b.send_serial(burst)
        b.tick()  # one loop pass
        got = replies(b)
        assert [r["s"] for r in got] == [1, 2, 3, 4, 5, 6, 7], got
        assert got[4]["e"] == "cmd" and all(r.get("ok") == 1 for r in got if r["s"] != 5)
        assert "Resume game" in st.screen(b) or "New game" in st.screen(b)
        st.no_faults(b)
    finally:
        b.kill()
