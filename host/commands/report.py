"""`moontable report [--out DIR]`: a folder of plain HTML pages that open
offline and need nothing else (no script, no image file, no font):

- index.html: each player's record with the evidence behind the win rate
  (plays, wins and a 95% interval, ordered by the interval's low end, so
  3 wins of 3 does not sit above 8 of 20 on luck alone), per game the
  average and best score, openskill ratings with their uncertainty and a
  head-to-head matrix, and the newest plays;
- plays-N.html: every play, newest first, a thousand a page;
- players/ID.html: one player's history;
- games/ID.html: one game: placings, a score chart (inline SVG) and its
  "Send to BG Stats" link with the link as a QR code (inline SVG).

A game's page and its QR code are made once: games/.made.json remembers
what each page was made from (the journal's hash, the summary, the page
templates), and an unchanged game keeps its page. A new page costs about
a millisecond for its QR code (host/qr.py) and as much again for its
chart and template, so many new pages are made in worker processes. The
HTML comes from Jinja2 templates (host/templates/report) with
autoescaping on.
"""

import datetime
import gc
import hashlib
import json
import os
import sys
import threading

from markupsafe import Markup

from moontable import config
from moontable import db as dbmod
from moontable import stats as statsmod
from moontable import svgchart
from moontable.names import is_label
from moontable.outfile import write_atomically
from moontable.words import outcome
from shared_rules import display_name, game_names, get_game

HELP = "write an HTML report: player records, ratings, head-to-head, every play, a page per game"

TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates", "report")
# Bump when a game page changes in a way its templates do not show
# (what this module puts into it): every page is then made again.
GAME_PAGE_VERSION = 1
INDEX_PLAYS = 200          # newest plays on the index page
PLAYS_PER_PAGE = 1000      # plays per plays-N.html
H2H_MAX = 24               # players in a head-to-head matrix
POOL_FROM = 64             # new game pages from which worker processes help
QR_MASK = 0                # a fixed data mask: the encoder skips scoring all eight (5x faster)


def add_arguments(parser):
    parser.add_argument("--out", metavar="DIR", default="moontable-report",
                        help="folder to write index.html and the other pages to (default: ./moontable-report)")
    parser.add_argument("--last", type=int, metavar="N",
                        help="pages and play log for the N most recent games only (records count every game)")
    parser.add_argument("--location", metavar="PLACE", type=config.location_option,
                        help="where the games were played, shown for a game whose log names no place "
                             "(default: config.toml's location)")
    dbmod.add_db_argument(parser)


# ---------------------------------------------------------------- templates

def environment():
    """The Jinja2 environment: autoescaping on for every template, so a
    player called <script> is shown, never run."""
    import jinja2

    from moontable.words import count

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.filters["count"] = count  # {{ n|count("round") }}: "1 round", "2 rounds"
    return env


def _game_page_stamp():
    """What every game page is made from besides its game: the templates
    it uses, the chart and QR code drawing and GAME_PAGE_VERSION."""
    h = hashlib.sha256(b"v%d" % GAME_PAGE_VERSION)
    from moontable import qr

    for path in [os.path.join(TEMPLATES, name) for name in ("base.html.j2", "game.html.j2", "macros.html.j2")] + [
            svgchart.__file__, qr.__file__]:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


# ---------------------------------------------------------------- data

def _seats(g):
    """Each seat of a game for the pages; "pid" None for a seat label
    (P1, ...), which is shown but has no player page to link to."""
    place = statsmod.places(g)
    winners = set(g["winner_seats"])
    return [{"name": g["players"][s], "pid": None if is_label(g["players"][s]) else g["player_ids"][s],
             "place": place[s], "score": g["scores"][s], "won": s in winners} for s in range(len(g["players"]))]


def _people(rows):
    """The rows that are people's: a seat label (P1, ...) is a place at
    one table, nobody's record, as `standings` and `players` say."""
    return [r for r in rows if not is_label(r["player"])]


def _play(g):
    seats = sorted(_seats(g), key=lambda s: (s["place"], s["name"].casefold())) if g["finished"] else _seats(g)
    return {"id": g["id"], "date": g["date"], "game_name": g["game_name"], "finished": g["finished"],
            "outcome": outcome(g), "seats": seats, "duration_min": g["duration_min"], "location": g["location"],
            "page": False}


def _extras(db):
    """{game pk: (journal digest, header)} in one query."""
    return {pk: (digest, json.loads(header)) for pk, digest, header in
            db.conn.execute("SELECT id, digest, header FROM games")}


def _rounds(db, pks):
    """{game pk: [[score per seat] per round]} for the given games."""
    out = {pk: [] for pk in pks}
    pks = sorted(pks)
    for i in range(0, len(pks), 500):
        part = pks[i:i + 500]
        for pk, rnd, seat, score in db.conn.execute(
                "SELECT game, round, seat, score FROM rounds WHERE game IN (%s) ORDER BY game, round, seat"
                % ",".join("?" * len(part)), part):
            rounds = out[pk]
            while len(rounds) < rnd:
                rounds.append([])
            rounds[rnd - 1].append(score)
    return out


_START_CACHE = {}


def _start_scores(header):
    """Scores before the first round, from the rules core (Shoot the Moon
    starts everyone on 2 chips)."""
    key = json.dumps([header["game"], len(header["players"]), header.get("options") or {}], sort_keys=True)
    if key not in _START_CACHE:
        _START_CACHE[key] = list(get_game(header["game"]).new(list(header["players"]),
                                                              header.get("options") or {})["scores"])
    return _START_CACHE[key]


# ---------------------------------------------------------------- game pages

def game_chart(g):
    """The score progression of one game as SVG: one line per player, or
    per partnership (partners share their chips)."""
    from moontable.bgstats import partnerships

    rounds = g["round_scores"]
    if not rounds:
        return ""
    series = partnerships(g["game"], g["options"], g["players"]) or [
        (name, [seat]) for seat, name in enumerate(g["players"])]
    lines = [(label, [g["start_scores"][seats[0]]] + [r[seats[0]] for r in rounds]) for label, seats in series]
    return svgchart.line_chart(lines, "round", "chips" if g["game"] == "shoot-the-moon" else "score",
                               title="game %d: %s, %s" % (g["id"], g["game_name"], g["date"]))


def qr_svg(url):
    """The link as an inline SVG QR code (host/qr.py: level L error
    correction, a fixed mask), or None when it is too long for any QR
    code."""
    from moontable import qr

    try:
        return qr.svg(url, QR_MASK)
    except qr.TooLong:
        return None


_ENV = None
# Held while a page is made, so a worker told to end (_watch_report)
# ends between pages, never leaving half a page's temporary file.
_PAGE = threading.Lock()


def _watch_report(read_end, write_end):
    """Run in each worker process as it starts: end it when the report
    ends, however that ends (TERM, HUP, even KILL, which nothing can
    catch). The report holds the write end of a pipe nobody writes to;
    when the report is gone the kernel closes it, and the read here sees
    end-of-file. The worker drops its own copy of the write end first,
    or it would keep the pipe open itself."""
    os.close(write_end)

    def watch():
        os.read(read_end, 1)
        with _PAGE:
            os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _make_game_pages(jobs):
    """Write the pages of [(path, game)]; return [(pk, problem
    or None)]. Runs in worker processes as well: everything it needs
    comes in `jobs`. One game's failure never stops the others."""
    global _ENV
    from moontable import bgstats

    if _ENV is None:
        _ENV = environment()
    template = _ENV.get_template("game.html.j2")
    done = []
    for path, g in jobs:
        problem = None
        with _PAGE:
            try:
                link = qr = None
                if g["finished"]:
                    link = bgstats.link(bgstats.play(g))
                    qr = qr_svg(link)
                    if qr is None:
                        problem = "its BG Stats link is too long for a QR code (the link is on the page)"
                        qr = "<p><small>No QR code: the link is too long for one.</small></p>"
                text = template.render(root="../", g=g, seats=sorted(_seats(g), key=lambda s: s["place"]),
                                       chart=game_chart(g), link=link, qr=qr)
                _write_quick(path, text)
            except (OSError, ValueError, KeyError, TypeError) as e:
                problem = "its page could not be made (%s: %s)" % (type(e).__name__, e)
        done.append((g["id"], problem))
    return done


def _write_quick(path, text):
    """Write via a temporary file and a rename (a reader never sees half a
    page), without the fsync of index.html: a lost page is made again.
    The temporary name is the page's own with this process's id, so no
    other writer shares it and no random name is drawn (mkstemp's cost,
    at 10,000 pages); the umask sets its mode, as for any saved file."""
    tmp = "%s.%d.tmp" % (path, os.getpid())
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _fingerprint(stamp, g, digest):
    text = json.dumps([stamp, digest, g], sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]


def _load_made(path):
    try:
        with open(path, encoding="utf-8") as f:
            made = json.load(f)
        return made if isinstance(made, dict) else {}
    except (OSError, ValueError):
        return {}


class _Progress:
    """One tqdm bar on stderr for the whole run, phase by phase; it shows
    itself only when the run lasts more than a second and stderr is a
    terminal."""

    def __init__(self):
        self.bar = None
        try:
            from tqdm import tqdm
        except ImportError:
            return
        tqdm.monitor_interval = 0  # no monitor thread: the worker processes are forked
        self.bar = tqdm(total=1, desc="reading games", file=sys.stderr, delay=1.0, leave=False,
                        disable=None, dynamic_ncols=True)

    def phase(self, desc, total):
        if self.bar is not None:
            self.bar.set_description(desc, refresh=False)
            self.bar.reset(total=total)

    def update(self, n):
        if self.bar is not None:
            self.bar.update(n)

    def close(self):
        if self.bar is not None:
            self.bar.close()


class _GamePages:
    """The pages of new or changed games: found first (each game's
    fingerprint against games/.made.json), handed to worker processes at
    once when there are many, and collected last, so the main process
    reads, rates and writes the other pages while the workers draw QR
    codes and charts. What was made is recorded in .made.json as it
    comes in, and kept when a run stops half way (close())."""

    def __init__(self, db, out_dir, summaries, extras):
        folder = os.path.join(out_dir, "games")
        os.makedirs(folder, exist_ok=True)
        self.made_path = os.path.join(folder, ".made.json")
        self.made = _load_made(self.made_path)
        stamp = _game_page_stamp()
        todo, self.prints = [], {}
        for g in summaries:
            fp = _fingerprint(stamp, g, extras[g["id"]][0])
            self.prints[str(g["id"])] = fp
            path = os.path.join(folder, "%d.html" % g["id"])
            if self.made.get(str(g["id"])) != fp or not os.path.exists(path):
                todo.append(g)
        rounds = _rounds(db, [g["id"] for g in todo])
        self.jobs = []
        for g in todo:
            header = extras[g["id"]][1]
            g = dict(g, round_scores=rounds[g["id"]], start_scores=_start_scores(header))
            self.jobs.append((os.path.join(folder, "%d.html" % g["id"]), g))
        self.kept = len(summaries) - len(self.jobs)
        self.chunks = [self.jobs[i:i + 50] for i in range(0, len(self.jobs), 50)]
        self.pool = None
        self.lifeline = ()  # the pipe the workers watch (_watch_report)
        self.futures = []
        self.problems = []

    def start(self):
        """Hand the pages to worker processes (one per CPU) when there
        are POOL_FROM or more; fewer are made in this process by finish()."""
        workers = min(len(self.chunks), os.cpu_count() or 1)
        if len(self.jobs) < POOL_FROM or workers < 2:
            return
        import concurrent.futures
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
        watch = {}
        if ctx.get_start_method() == "fork":  # a spawned worker inherits no pipe to watch
            self.lifeline = os.pipe()
            watch = {"initializer": _watch_report, "initargs": self.lifeline}
        # the objects read so far stay out of the workers' garbage collection:
        # it would touch each one and so copy every forked page of memory
        gc.freeze()
        try:
            self.pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=ctx, **watch)
            self.futures = [self.pool.submit(_make_game_pages, chunk) for chunk in self.chunks]
        finally:
            gc.unfreeze()

    def finish(self, bar):
        """Wait for (or make) every page; (made, kept, problems)."""
        bar.phase("game pages", len(self.jobs))
        if self.pool is None:
            for chunk in self.chunks:
                self._record(_make_game_pages(chunk), bar)
        else:
            import concurrent.futures

            for future in concurrent.futures.as_completed(self.futures):
                self._record(future.result(), bar)
        return len(self.jobs), self.kept, self.problems

    def _record(self, result, bar):
        for pk, problem in result:
            if problem is None or "QR" in problem:
                self.made[str(pk)] = self.prints[str(pk)]
            if problem is not None:
                self.problems.append((pk, problem))
        bar.update(len(result))

    def close(self):
        """Stop the workers (pages not begun are dropped) and record
        what was made."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            for future in self.futures:
                if future.done() and not future.cancelled() and future.exception() is None:
                    for pk, problem in future.result():
                        if problem is None or "QR" in problem:
                            self.made[str(pk)] = self.prints[str(pk)]
        for fd in self.lifeline:
            os.close(fd)
        self.lifeline = ()
        if self.jobs:
            _write_quick(self.made_path, json.dumps(self.made, sort_keys=True))


# ---------------------------------------------------------------- the rest

def _player_pages(env, out_dir, summaries, records, ratings, play_rows, bar):
    """players/ID.html for everyone who played; `play_rows`: each play's
    log row by game pk."""
    folder = os.path.join(out_dir, "players")
    os.makedirs(folder, exist_ok=True)
    template = env.get_template("player.html.j2")
    overall = {r["player_id"]: r for r in records["overall"]}
    per_game = {}
    for game, rows in records["by_game"].items():
        for r in rows:
            per_game.setdefault(r["player_id"], []).append((game, r))
    rating_of = {(game, r["player_id"]): r for game, rows in ratings.items() for r in rows}
    history = {}
    names = {}
    for g in reversed(summaries):
        for pid, name in zip(g["player_ids"], g["players"]):
            if is_label(name):
                continue  # a seat label is nobody: no page
            history.setdefault(pid, []).append(play_rows[g["id"]])
            names.setdefault(pid, name)
    order = {name: k for k, name in enumerate(game_names())}
    bar.phase("player pages", len(history))
    for pid, plays in history.items():
        game_of = records["game_of"]  # a row a variant; ratings are per game
        rows = sorted(per_game.get(pid, []),
                      key=lambda x: (order.get(game_of[x[0]], 99), x[0] != game_of[x[0]], x[0]))
        table = [{"name": display_name(key), "r": r, "rating": rating_of.get((game_of[key], pid))} for key, r in rows]
        games = sorted({game_of[key] for key, _ in rows}, key=lambda game: order.get(game, 99))
        series = [(display_name(game) + " rating", [h[1] for h in rating_of[(game, pid)]["history"]])
                  for game in games if (game, pid) in rating_of]
        chart = svgchart.line_chart(series, "games played", "rating (surely at least)", start=1) if series else ""
        text = template.render(root="../", name=names[pid], overall=overall.get(pid), per_game=table,
                               chart=chart, plays=plays)
        _write_quick(os.path.join(folder, "%d.html" % pid), text)
        bar.update(1)
    return len(history)


def _plays_pages(env, out_dir, plays, bar):
    template = env.get_template("plays.html.j2")
    pages = max(1, -(-len(plays) // PLAYS_PER_PAGE))
    bar.phase("play log", pages)
    for n in range(1, pages + 1):
        text = template.render(root="", page=n, pages=pages, plays=plays[(n - 1) * PLAYS_PER_PAGE:n * PLAYS_PER_PAGE])
        _write_quick(os.path.join(out_dir, "plays-%d.html" % n), text)
        bar.update(1)
    return pages


def build(db, out_dir, last=None, location=None):
    """Write the report into out_dir. Returns {"index": path, "games_made",
    "games_kept", "players", "plays_pages", "problems": [(pk, text)]}.
    `location`: where a game whose log names no place was played."""
    os.makedirs(out_dir, exist_ok=True)
    bar = _Progress()
    try:
        return _build(db, out_dir, last, location, bar)
    finally:
        bar.close()


def _build(db, out_dir, last, location, bar):
    env = environment()
    # oldest first; a game stopped before its first round was scored is
    # no game to a player (a stray start, a rematch by accident): not shown
    everything = [g for g in db.games() if g["rounds"] or g["finished"]]
    for g in everything:
        g["location"] = g["location"] or location  # shown, linked and in each page's fingerprint
    extras = _extras(db)
    shown = everything if last is None else (everything[-last:] if last > 0 else [])
    game_pages = _GamePages(db, out_dir, shown, extras)
    try:
        game_pages.start()
        done = _other_pages(db, env, out_dir, everything, shown, bar)
        made, kept, problems = game_pages.finish(bar)
    finally:
        game_pages.close()
    # the index last: its links lead to pages that are all there
    index = os.path.join(out_dir, "index.html")
    write_atomically(index, done.pop("index"))  # a full disk keeps the previous page whole
    return dict(done, index=index, games_made=made, games_kept=kept, problems=problems)


def _other_pages(db, env, out_dir, everything, shown, bar):
    """The player pages and the play log, written; the index's text.
    {"index": text, "players": count, "plays_pages": count}."""
    records = statsmod.records(everything)
    records = dict(records, overall=_people(records["overall"]),
                   by_game={key: _people(rows) for key, rows in records["by_game"].items()})
    ratings = statsmod.ratings(everything)
    plays_by_id = {g["id"]: _play(g) for g in everything}
    for g in shown:
        plays_by_id[g["id"]]["page"] = True  # the others (--last) have no page to link to
    # Each play's row is rendered once and placed as it is on every page
    # that lists it: the pages in players/ have the report's folder as
    # their <base>, so one row's links work on all of them.
    row = env.get_template("play_row.html.j2")
    rows = {pk: Markup(row.render(p=p)) for pk, p in plays_by_id.items()}
    newest = [rows[g["id"]] for g in reversed(shown)]
    players = _player_pages(env, out_dir, everything, records, ratings, rows, bar)
    pages = _plays_pages(env, out_dir, newest, bar)
    sections = []
    stored = set(db.game_names())
    for game in game_names():
        if game not in stored:
            continue
        h2h_players, beat = statsmod.head_to_head(everything, game)
        h2h_players = [(pid, name) for pid, name in h2h_players if not is_label(name)]
        # a table a variant (no average mixes Game 1's 200 with Game 8's
        # 50); the ratings and the head-to-head are the game's, shown once
        for n, key in enumerate(statsmod.variants(records, game)):
            sections.append({"name": display_name(key), "rows": records["by_game"][key],
                             "ratings": {r["player_id"]: r for r in ratings.get(game, [])},
                             "h2h_players": h2h_players[:H2H_MAX] if n == 0 else [],
                             "h2h_cut": n == 0 and len(h2h_players) > H2H_MAX, "beat": beat})
    text = env.get_template("index.html.j2").render(
        root="", stored=len(everything), finished=sum(1 for g in everything if g["finished"]),
        generated=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), overall=records["overall"],
        overall_chart=svgchart.interval_bars(records["overall"]), games=sections,
        plays=newest[:INDEX_PLAYS], more=len(newest) > INDEX_PLAYS, total_plays=len(newest))
    return {"index": text, "players": players, "plays_pages": pages}


def _body(args):
    if args.last is not None and args.last < 0:
        raise dbmod.DbError("--last must be 0 or more, not %d" % args.last)
    with dbmod.open_for(args, readonly=True) as db:
        try:
            done = build(db, args.out, args.last, args.location)
        except OSError as e:
            raise dbmod.DbError("cannot write the report to %s: %s" % (args.out, e.strerror or e))
    for pk, problem in done["problems"]:
        print("moontable report: game %d: %s" % (pk, problem), file=sys.stderr)
    print("wrote %s (%d game page%s made, %d unchanged; %d player page%s)"
          % (done["index"], done["games_made"], "" if done["games_made"] == 1 else "s", done["games_kept"],
             done["players"], "" if done["players"] == 1 else "s"))
    return 0


def run(args):
    return dbmod.guarded("report", _body, args)
