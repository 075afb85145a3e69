"""ESP32 DevKit: I2C0 OLED on GPIO21/22, four pull-up buttons, PWM buzzer,
console on the USB-UART bridge. Pin numbers come from /board.json only; the
pin-level code is shared with the Pico in boards/machine_board.py."""

import machine

from boards.machine_board import MachineBoard


def setup(cfg):
    return MachineBoard(machine, cfg)
