// The device in a web page: the real firmware (compiled to .mpy, in one
// ROMFS image) run by MicroPython's WebAssembly port, with the board of
// firmware/boards/web.py. This file is only the page's side of that board:
// it starts the interpreter (mpboard.mjs, shared with the Node runner),
// keeps the flash folder in the browser (flash.mjs), calls one app loop
// pass per timer tick, paints the emulated panel, mirrors its text into an
// aria-live region, turns pointer and key input into button levels, plays
// the buzzer through Web Audio and offers the past games' journals and
// the finished ones' BG Stats links.
// No rule and no screen lives here.

import { makeDirs, mirrorOut, setPath, startMicroPython, writeFiles } from "../mpboard.mjs";
import { BrowserFlash } from "./flash.mjs";

const FLASH = "/flash";
const DATA = FLASH + "/data";
const LOOP_MS = 20; // firmware/app.py's LOOP_MS: the pace of a board's loop
// A button level is sampled at least this long after it began before the
// next change, so a quick tap is never lost: buttons.py's 20 ms debounce
// with a margin.
const MIN_LEVEL_MS = 30;
const LONG_HOLD_MS = 1000; // the capitals' long press, as in the terminal simulator
const BITS = { up: 1, down: 2, ok: 4, back: 8 };
const KEYS = {
  ArrowUp: "up", u: "up", ArrowDown: "down", d: "down", Enter: "ok", o: "ok", " ": "ok", Backspace: "back", b: "back",
};
const LONG_KEYS = { U: "up", D: "down", O: "ok", B: "back", l: "back" };
const COLOURS = { white: [235, 240, 255], amber: [255, 176, 0] };

const $ = (id) => document.getElementById(id);

// The clock. A page opened with ?clock=test (the tests' pages) has a clock
// that stands still until moontable.advance(ms) moves it, one loop pass
// every LOOP_MS: the device's minutes, holds and repeats then take the
// same passes however busy the machine is. Any other page runs on the
// browser's own clock, one pass per timer tick.
const TEST_CLOCK = new URLSearchParams(location.search).get("clock") === "test";
const testClock = { now: 0, timers: [] };
const now = () => (TEST_CLOCK ? testClock.now : performance.now());
/** fn() after ms on the page's clock. */
function later(ms, fn) {
  if (TEST_CLOCK) testClock.timers.push([testClock.now + ms, fn]);
  else setTimeout(fn, ms);
}

/** What the tests and the curious read: figures and the last frame. */
const page = (globalThis.moontable = {
  ready: false,
  error: null,
  advance: null, // with ?clock=test: advance(ms), stall(ms), clockMs() (see `now`)
  stall: null,
  clockMs: null,
  stopped: false,
  console: "",
  text: "",
  get pendingLevels() {
    return levels.pending; // button changes not yet seen by the firmware
  },
  frame: null, // the panel as MONO_VLSB bytes (1024), as the emulator gives it
  stats: { bootMs: null, firstFrameMs: null, passes: 0, passMsTotal: 0, passMsMax: 0, frames: 0, tones: 0, sounded: 0, recent: [], frameRecent: [] },
  readFlash: null, // (path under the flash folder) -> bytes, once started
  elsewhere: false, // another tab runs the device: this one waits for it to close
  storageError: null, // the last write the browser refused, as the page said it
});

function status(text) {
  $("status").textContent = text;
}

// -- buttons ----------------------------------------------------------------
/** Button levels as the firmware samples them: changes are queued with
 * their real order and applied at the start of a loop pass, one at a time,
 * and a level is changed only after a pass has sampled it MIN_LEVEL_MS
 * after it began. So buttons.py's debounce always sees a tap, even when a
 * busy browser runs the passes late, a press and its release are never
 * seen in one look, and a held button stays held for as long as it really
 * is. */
class Levels {
  constructor() {
    this.mask = 0;
    this.queue = [];
    this.changedAt = -Infinity;
    this.sampledAt = -Infinity;
  }
  set(name, down) {
    this.queue.push([BITS[name], down]);
  }
  get pending() {
    return this.queue.length;
  }
  /** The mask for the pass starting now. */
  apply(now) {
    while (this.queue.length && this.sampledAt - this.changedAt >= MIN_LEVEL_MS) {
      const [bit, down] = this.queue.shift();
      const m = down ? this.mask | bit : this.mask & ~bit;
      if (m !== this.mask) {
        this.mask = m;
        this.changedAt = now;
        break;
      }
    }
    this.sampledAt = now;
    return this.mask;
  }
}
const levels = new Levels();

// -- sound ------------------------------------------------------------------
/** The buzzer through Web Audio, which a browser allows only after a user
 * gesture: until then (and while muted) a tone is silent. */
class Buzzer {
  constructor() {
    this.ctx = null;
    this.osc = null;
    this.muted = localStorage.getItem("moontable.muted") === "1";
    this.playing = 0; // the frequency the firmware asked for, 0 = off
  }
  unlock() {
    if (this.ctx) return;
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (Ctx) this.ctx = new Ctx();
  }
  tone(freq) {
    this.playing = freq;
    page.stats.tones += 1;
    this.stopOsc();
    if (this.muted || !this.ctx) return;
    const osc = this.ctx.createOscillator();
    const gain = this.ctx.createGain();
    osc.type = "square";
    osc.frequency.value = freq;
    gain.gain.value = 0.06;
    osc.connect(gain).connect(this.ctx.destination);
    osc.start();
    this.osc = osc;
    page.stats.sounded += 1;
  }
  off() {
    this.playing = 0;
    this.stopOsc();
  }
  stopOsc() {
    if (this.osc) {
      this.osc.stop();
      this.osc.disconnect();
      this.osc = null;
    }
  }
  setMuted(m) {
    this.muted = m;
    localStorage.setItem("moontable.muted", m ? "1" : "0");
    if (m) this.stopOsc();
  }
}
const buzzer = new Buzzer();

// -- the panel ----------------------------------------------------------------
const canvas = $("panel");
const ctx2d = canvas.getContext("2d");
const image = ctx2d.createImageData(128, 64);
let colour = localStorage.getItem("moontable.colour") === "amber" ? "amber" : "white";

function paint() {
  const buf = page.frame;
  if (!buf) return;
  const [r, g, b] = COLOURS[colour];
  const px = image.data;
  for (let y = 0; y < 64; y++) {
    const base = (y >> 3) * 128;
    const bit = 1 << (y & 7);
    for (let x = 0; x < 128; x++) {
      const i = (y * 128 + x) * 4;
      const on = buf[base + x] & bit;
      px[i] = on ? r : 0;
      px[i + 1] = on ? g : 0;
      px[i + 2] = on ? b : 0;
      px[i + 3] = 255;
    }
  }
  ctx2d.putImageData(image, 0, 0);
}

// -- records out ----------------------------------------------------------------
function download(name, bytes) {
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/x-ndjson" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

let shownRecords = null;

function showRecords(mp, records) {
  const list = $("records");
  const text = records();
  if (text === shownRecords) return; // the list is redrawn only when it changes
  shownRecords = text;
  const games = JSON.parse(text);
  list.replaceChildren();
  if (!games.length) {
    const li = document.createElement("li");
    li.textContent = "None yet.";
    list.append(li);
    return;
  }
  for (const g of games) {
    // named as a player knows the game (firmware/boards/web.py's
    // game_title), the id only in the file's name
    const li = document.createElement("li");
    li.dataset.game = g.id;
    li.className = g.finished ? "finished" : "unfinished";
    const title = document.createElement("span");
    title.className = "title";
    title.textContent = g.title;
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "record";
    btn.dataset.game = g.id;
    btn.textContent = "Download";
    btn.title = `${g.id}.jsonl`;
    btn.setAttribute("aria-label", `Download the journal of ${g.title} (${g.id}.jsonl)`);
    btn.addEventListener("click", () => download(g.id + ".jsonl", mp.FS.readFile(g.file)));
    li.append(title, " ", btn);
    if (g.bgstats) {
      // the play object comes from host/bgstats.py, run by the firmware
      const a = document.createElement("a");
      a.className = "bgstats";
      a.dataset.game = g.id;
      a.href = g.bgstats;
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = "Send to BG Stats";
      li.append(" ", a);
    }
    list.append(li);
  }
}

// -- start-up and the loop ---------------------------------------------------------
async function fetchBytes(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${res.statusText}`);
  return new Uint8Array(await res.arrayBuffer());
}

function deviceId() {
  let id = localStorage.getItem("moontable.id");
  if (!id) {
    const b = new Uint8Array(4);
    crypto.getRandomValues(b);
    id = "web-" + Array.from(b, (v) => v.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("moontable.id", id);
  }
  return id;
}

/** The browser's wall time as the device counts it: local time as if it
 * were UTC, in seconds (a PC's sync sets the same, host/sync.py). */
function localEpoch() {
  const now = new Date();
  return Math.floor((now.getTime() - now.getTimezoneOffset() * 60000) / 1000);
}

function wireInput() {
  for (const el of document.querySelectorAll(".buttons button")) {
    const name = el.dataset.button;
    let held = false;
    const up = () => {
      if (!held) return;
      held = false;
      el.classList.remove("down");
      levels.set(name, false);
    };
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      buzzer.unlock();
      if (held) return;
      held = true;
      el.classList.add("down");
      try {
        el.setPointerCapture(e.pointerId);
      } catch {
        // a synthetic pointer has nothing to capture
      }
      levels.set(name, true);
    });
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    el.addEventListener("lostpointercapture", up);
    el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch is a long press, not a menu
  }
  const down = new Set();
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest(".options, #records")) return;
    buzzer.unlock();
    if (LONG_KEYS[e.key] && !e.repeat) {
      const name = LONG_KEYS[e.key];
      levels.set(name, true);
      later(LONG_HOLD_MS, () => levels.set(name, false));
      e.preventDefault();
      return;
    }
    const name = KEYS[e.key];
    if (!name) return;
    e.preventDefault();
    if (e.repeat || down.has(e.key)) return; // a held key holds the button
    down.add(e.key);
    levels.set(name, true);
  });
  // a key let go while the page had no focus sends no keyup: let go of it
  globalThis.addEventListener("blur", () => {
    for (const key of down) levels.set(KEYS[key], false);
    down.clear();
  });
  document.addEventListener("keyup", (e) => {
    const name = KEYS[e.key];
    if (!name || !down.has(e.key)) return;
    down.delete(e.key);
    levels.set(name, false);
  });
  const mute = $("mute");
  const showMute = () => {
    mute.textContent = buzzer.muted ? "Sound off" : "Sound on";
    mute.setAttribute("aria-pressed", buzzer.muted ? "true" : "false");
  };
  mute.addEventListener("click", () => {
    buzzer.unlock();
    buzzer.setMuted(!buzzer.muted);
    showMute();
  });
  showMute();
  const col = $("colour");
  const showColour = () => {
    col.textContent = colour === "amber" ? "White panel" : "Amber panel";
    col.setAttribute("aria-pressed", colour === "amber" ? "true" : "false");
  };
  col.addEventListener("click", () => {
    colour = colour === "amber" ? "white" : "amber";
    localStorage.setItem("moontable.colour", colour);
    showColour();
    paint();
  });
  showColour();
}

async function start() {
  const [romfs, mainPy, boardJson] = await Promise.all([
    fetchBytes("app/app.romfs"),
    fetchBytes("app/main.py"),
    fetchBytes("app/board.json"),
  ]);
  const flash = new BrowserFlash(localStorage, (msg) => {
    page.storageError = msg;
    status(msg);
  });
  const dec = new TextDecoder();
  const mp = await startMicroPython({
    romfs,
    serialOut: (bytes) => {
      page.console += dec.decode(bytes, { stream: true });
    },
  });
  const FS = mp.FS;
  let recordsStale = true;
  mp.registerJsModule("webhost", {
    buttons: () => levels.mask,
    tone: (freq) => buzzer.tone(freq),
    off: () => buzzer.off(),
    device_id: deviceId,
    // the test clock's ms, or null: the board's ticks_ms (firmware/boards/web.py)
    test_ms: () => (TEST_CLOCK ? testClock.now : null),
    local_epoch: localEpoch,
    // seconds east of UTC, for BG Stats' playDate in UTC (firmware/boards/web.py)
    utc_offset: () => -new Date().getTimezoneOffset() * 60,
    drive: (fn) => {
      mp.driven = fn;
    },
  });
  makeDirs(FS, FLASH);
  writeFiles(FS, [
    [FLASH + "/main.py", mainPy],
    [FLASH + "/board.json", boardJson],
  ]);
  const saved = flash.load();
  const aside = flash.setAside(saved, [FLASH, DATA, DATA + "/games"]);
  for (const d of saved.dirs) makeDirs(FS, d);
  writeFiles(FS, saved.files);
  const notes = aside.map((n) => n + " (kept in this browser's storage).");
  if (saved.damaged.length)
    notes.push(`Could not read ${saved.damaged.join(", ")} from this browser's storage: left out (kept in storage as it was).`);
  const warning = notes.length ? notes.join(" ") : null;
  flash.changed = (path) => {
    if (path === DATA + "/index.json" || path.startsWith(DATA + "/games/")) recordsStale = true;
  };
  mirrorOut(FS, DATA, flash.sink());
  FS.chdir(FLASH);
  mp.runPython(`import os\nos.chdir(${JSON.stringify(FLASH)})\ndel os`);
  setPath(mp, [FLASH]);
  mp.runPython(dec.decode(mainPy)); // boots the app (firmware/main.py), as a power-on
  const step = mp.driven;
  const board = mp.globals.get("_board");
  if (!step || !board) throw new Error("the firmware did not start:\n" + page.console);
  const panel = board.panel;
  const text = board.text;
  const records = board.records;
  const live = $("screen-text");
  page.stats.bootMs = performance.now();
  page.readFlash = (rel) => Array.from(FS.readFile(FLASH + "/" + rel));
  page.sounding = () => buzzer.osc !== null;
  page.panelIsExact = board.panel_is_exact;
  page.ready = true;
  status(
    [warning, page.storageError].filter(Boolean).join(" ") ||
      "Ready. The game is kept in this browser; finished games can be downloaded below.",
  );

  const pass = () => {
    const t0 = performance.now();
    levels.apply(now());
    let more;
    try {
      more = step();
    } catch (e) {
      page.error = String(e.message || e);
      status("The device stopped: " + page.error);
      return;
    }
    const t1 = performance.now();
    const s = page.stats;
    s.passes += 1;
    s.passMsTotal += t1 - t0;
    if (t1 - t0 > s.passMsMax) s.passMsMax = t1 - t0;
    if (s.recent.length >= 2000) s.recent.shift(); // the last passes' durations, for bench/web_page.py
    s.recent.push(t1 - t0);
    const addr = panel();
    if (addr) {
      page.frame = mp._module.HEAPU8.slice(addr, addr + 1024);
      s.frames += 1;
      paint();
      const t = text();
      if (t !== page.text) {
        page.text = t;
        live.textContent = t;
      }
      if (s.firstFrameMs === null) s.firstFrameMs = performance.now();
      if (s.frameRecent.length >= 500) s.frameRecent.shift(); // reading, painting and voicing a changed frame
      s.frameRecent.push(performance.now() - t1);
    }
    if (recordsStale) {
      recordsStale = false;
      showRecords(mp, records);
    }
    if (!more) {
      status("The app stopped.");
      page.stopped = true;
      return;
    }
    if (!TEST_CLOCK) setTimeout(pass, Math.max(0, LOOP_MS - (performance.now() - t0)));
  };
  if (TEST_CLOCK) {
    /** Move the test clock on by ms, one loop pass every LOOP_MS (each
     * after the timers due by then); returns the passes run so far. */
    page.advance = (ms) => {
      const end = testClock.now + ms;
      while (testClock.now < end && !page.error && !page.stopped) {
        testClock.now += LOOP_MS;
        const due = testClock.timers.filter(([at]) => at <= testClock.now);
        testClock.timers = testClock.timers.filter(([at]) => at > testClock.now);
        for (const [, fn] of due) fn();
        pass();
      }
      return page.stats.passes;
    };
    /** A stall: the clock moves on by ms and no pass runs meanwhile. */
    page.stall = (ms) => {
      testClock.now += ms;
    };
    page.clockMs = () => testClock.now;
  }
  pass();
}

// -- one tab at a time ---------------------------------------------------------
// Every tab of the page in one browser shares one storage, the device's
// flash. Two running at once would each rewrite the journal from their
// own copy, and one tab's events would vanish. So a tab runs the device
// only while it holds a Web Lock; another tab says the device is open
// elsewhere and starts it (from what the first one saved) when that one
// closes.
const LOCK = "moontable.device";

function holdDevice(options) {
  return new Promise((resolve) => {
    navigator.locks
      .request(LOCK, options, (lock) => {
        if (!lock) {
          resolve(false);
          return null;
        }
        resolve(true);
        return new Promise(() => {}); // held for the life of the page
      })
      .catch(() => resolve(true)); // no locks here (a sandboxed frame): run as the only tab
  });
}

async function claimDevice() {
  if (!navigator.locks) return; // a browser without Web Locks: one tab is assumed
  if (await holdDevice({ ifAvailable: true })) return;
  page.elsewhere = true;
  status(
    "The device is open in another tab or window of this browser: only one may run it, or one would undo the " +
      "other's moves. Use that one; this tab starts the device when that one closes.",
  );
  await holdDevice({});
  page.elsewhere = false;
}

wireInput();
claimDevice()
  .then(start)
  .catch((e) => {
    page.error = String(e && e.message ? e.message : e);
    status("The device could not start: " + page.error);
  });
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("sw.js").catch(() => {
    // no offline copy (a plain-http host that is not localhost): the page still works online
  });
}
