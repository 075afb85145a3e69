"""The app's screens. Each screen has button(b, kind, count), update(now)
-> bool (True when it needs drawing) and draw(display). Modules here are
imported only when a screen is opened, so the heap holds only what the
current screen needs."""
