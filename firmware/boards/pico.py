"""Raspberry Pi Pico (RP2040): I2C0 OLED, four pull-up buttons, PWM buzzer,
console on USB CDC. Pin numbers come from /board.json only; the pin-level
code is shared with the ESP32 in boards/machine_board.py."""

import machine

from boards.machine_board import MachineBoard


def setup(cfg):
    return MachineBoard(machine, cfg)
