"""The virtual board's PC side: an SSD1306 emulator fed by the firmware's real
I2C traffic, and renderers that turn its panel into text or PNG."""
