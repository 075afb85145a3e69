"""Boot. Kept tiny so that a broken app can never lock a player out:

- hold BACK while powering on (safe mode): the app does not start and the
  MicroPython REPL is free for mpremote or a terminal;
- otherwise the app runs; Ctrl-C from a PC saves the timer and stops it,
  and the board drops to the REPL when this file ends.
An unexpected error is shown on the display and printed, then the REPL
takes over (the journal on flash is already safe)."""

import sys

import boards

_board = None
try:
    _board = boards.setup()
    if _board.buttons.read() & 8:  # BACK held at power-on
        _board.display.fill(0)
        _board.display.text("SAFE MODE", 28, 20, 1)
        _board.display.text("REPL on USB", 20, 36, 1)
        _board.display.show()
        print("moontable: safe mode (BACK held at power-on); the app was not started")
    else:
        import app

        if hasattr(_board, "hand_over"):
            # a host that calls each loop pass itself (the WebAssembly port)
            _board.hand_over(app.App(_board))
        else:
            app.run(_board)
            print("moontable: app stopped; REPL")
except KeyboardInterrupt:
    print("moontable: interrupted; REPL")
except Exception as e:
    sys.print_exception(e)
    if _board is not None:
        try:
            _board.display.fill(0)
            _board.display.text("ERROR", 44, 0, 1)
            msg = str(e)
            for i in range(6):
                _board.display.text(msg[i * 16 : i * 16 + 16], 0, 12 + 9 * i, 1)
            _board.display.show()
        except Exception:
            pass
