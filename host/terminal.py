"""Text as a terminal should show it."""


def printable(text):
    """Text safe to print on a terminal: control characters (escape
    sequences, CR, ...) and lone surrogates shown as escapes instead of
    acting on the terminal."""
    out = []
    for ch in str(text):
        o = ord(ch)
        if o < 32 or o == 127 or 0x80 <= o < 0xA0:
            out.append("\\x%02x" % o)
        elif 0xD800 <= o < 0xE000:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return "".join(out)
