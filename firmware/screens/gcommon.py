"""Drawing pieces the game screens share: the score list and the hint line."""

from screens.base import text_right


def scoreboard(d, names, scores, y=11, rows=4, mark=None, top=0):
    """Name and score per line from y; `mark` is a seat shown with '>'."""
    n = len(names)
    if top > max(0, n - rows):
        top = max(0, n - rows)
    for i in range(top, min(n, top + rows)):
        d.text((">" if i == mark else " ") + names[i][:10], 0, y, 1)
        text_right(d, str(scores[i]), y)
        y += 9


def hint(d, text):
    d.fill_rect(0, 55, 128, 9, 1)
    d.text(text[:16], 1, 56, 0)
