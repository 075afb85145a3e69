"""The simulated board under MicroPython's WebAssembly port (32-bit, as a
Pico or an ESP32): the same hardware link as `sim` (boards/simwire.py),
reached through the `wasmhost` module that the host (web/run.mjs, or the
browser page) registers, since this port has no file descriptors and no
os.getenv. The host drives the app one loop pass per call
(`hand_over`): the port collects garbage only between calls from the
host, so a program that never returns would never collect."""

import wasmhost  # pyright: ignore[reportMissingImports]  (registered by the host: web/mpboard.mjs)
from uctypes import addressof
from boards import StdioSerial
from boards.simwire import Link, WireBoard


class HostLink(Link):
    """Bytes cross to the host as an address and a length in this
    interpreter's memory: a Python object handed to the host would stay
    referenced until the host's own garbage collector let it go."""

    def read(self, n):
        buf = bytearray(n)
        got = wasmhost.link_recv_into(addressof(buf), n)
        return buf if got == n else buf[:got]

    def send(self, data):
        wasmhost.link_send(addressof(data), len(data))


def _env(name, default=""):
    v = wasmhost.getenv(name)
    return default if v is None else v


class WasmBoard(WireBoard):
    def hand_over(self, app):
        """Boot the app, then let the host call one loop pass at a time
        (main.py calls this instead of app.run)."""
        app.boot()

        def step():
            if not app.running:
                return False
            try:
                app.step()
            except KeyboardInterrupt:
                app.running = False
            if not app.running:
                app.shutdown()
            return app.running

        wasmhost.drive(step)


def setup(cfg):
    # The data folder is "data" in the flash folder (the current folder),
    # named as briefly as a board's "/data": the journal builds every path
    # from it, so an absolute host folder would make the heap figures
    # depend on where the run happens to be.
    virtual = _env("MOONSIM_CLOCK") == "virtual"
    return WasmBoard(cfg, HostLink(virtual), StdioSerial(), {"board": "wasm", "id": _env("MOONSIM_ID", "sim-0001")},
                     int(_env("MOONSIM_SEED", "0")), "data")
