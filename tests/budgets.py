"""The device's budgets, from the board we ship (docs/device.md, "Memory"):
one place for the tests and the benches that hold the firmware to them.

The Raspberry Pi Pico's stock MicroPython has a 228 KB heap (233,664
bytes, read on the emulated chip); a peak live heap of at most 128 KB
leaves the collector about 100 KB. The 32-bit WebAssembly port stands in
for the chip within 5%. ROMFS keeps the code out of the heap, so it is
always lower and needs no budget of its own."""

HEAP_KB = 128  # peak live heap, .mpy files on the flash: the chip, and the 32-bit port
PORT_AGREES = 0.05  # the 32-bit port's peak is the chip's within this share
PASS_MS = 100  # the longest loop pass while a game is played
