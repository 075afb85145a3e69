"""The virtual board's PC side: an SSD1306 emulator fed by the firmware's real
I2C traffic, renderers that turn its panel into text (braille cells or half
blocks, fitted to the terminal) or PNG, the keyboard-to-button translator,
and the live runner that relays the board's serial link to a pty."""
