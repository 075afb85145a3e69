"""What the serial protocol may do to the app (protocol.Protocol's
`hooks`): set the clock, take a new roster or new settings, report the
device, leave for the REPL.

Why a module of its own: these run only while a PC is connected, so they
load with the protocol and are dropped with it (App.serial); a game at the
table never carries them."""

from config import DEFAULT_NAMES, FIRMWARE_VERSION, check_settings


class Hooks:
    def __init__(self, app):
        self.app = app

    def set_clock(self, epoch_s):
        app = self.app
        app.epoch_base = epoch_s * 1000 - app.uptime.ms()  # epoch ms at uptime 0

    def roster_changed(self, names):
        app = self.app
        app.roster = list(names) or list(DEFAULT_NAMES)
        app.dirty = True

    def settings_changed(self, settings):
        check_settings(settings)
        app = self.app
        for k in settings:
            app.conf[k] = settings[k]
        app.apply_settings()

    def settings(self):
        """The settings in force, defaults included (protocol "get")."""
        return dict(self.app.conf)

    def exit_to_repl(self):
        self.app.running = False

    def device_info(self):
        info = dict(self.app.board.info)
        info["fw"] = FIRMWARE_VERSION
        return info
