#!/usr/bin/env node
// The 32-bit interpreter for the tests and the benches: plays the part of
// the `micropython` binary with MicroPython's WebAssembly port.
//
//   node web/run.mjs [-X heapsize=N] [--romfs IMAGE] [--stats FILE] (SCRIPT | -c CODE)
//
// - The script's folder is the board's flash: it is copied into the
//   interpreter's in-memory filesystem as /flash (wherever it is on the
//   host: the host's path, held in the interpreter's current folder and in
//   every path it joins, would make the heap figures depend on it), the
//   program starts there, and every change it makes is written back to the
//   real folder as it happens (so a kill at any moment leaves what a power
//   cut would).
// - $MICROPYPATH (colon-separated, as for the unix port) adds folders after
//   the board's path ('', .frozen, /rom, /rom/lib, /lib); they are copied in
//   read-only.
// - --romfs IMAGE (or $MOONWASM_ROMFS) mounts a ROMFS image (`mpremote romfs
//   build`) at /rom.
// - os.urandom is the host's, but for a seeded simulated board
//   ($MOONSIM_SEED, not 0): a fixed stream from that seed, so its runs,
//   and their heap figures, repeat.
// - stdin/stdout are the board's serial link; stdin is read without
//   blocking, as a board's USB serial is polled.
// - A program that hands a function to wasmhost.drive(fn) is driven one
//   call of fn per step (one app loop pass), since the port collects
//   garbage only between calls; --stats FILE (or $MOONWASM_STATS) then
//   keeps {"peak": bytes, "live": bytes, "steps": n, "grown": bytes} there,
//   rewritten at every step boundary, where the live heap is read after a
//   collection ("grown": the heap as grown so far, an upper bound only).
// - The hardware link of the simulated board ($MOONSIM_FDS="read,write",
//   two inherited pipe ends) is reached through wasmhost.link_send/recv.
// Exit status: 0, the program's SystemExit code, or 1 on an uncaught error.

import { randomFillSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { drive, grownHeap, liveHeap, mirrorOut, setPath, startMicroPython, writeFiles } from "./mpboard.mjs";

function usage(msg) {
  process.stderr.write(`run.mjs: ${msg}\nusage: node web/run.mjs [-X heapsize=N] [--romfs IMAGE] [--stats FILE] (SCRIPT | -c CODE)\n`);
  process.exit(2);
}

function parseSize(text) {
  const m = /^(\d+)([kKmM]?)$/.exec(text);
  if (!m) usage(`bad heap size ${text}`);
  return Number(m[1]) * ({ k: 1024, m: 1048576 }[m[2].toLowerCase()] || 1);
}

function parseArgs(argv) {
  const opts = { heapsize: 256 * 1024, stats: process.env.MOONWASM_STATS || null, romfs: process.env.MOONWASM_ROMFS || undefined, args: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (opts.script !== undefined || opts.code !== undefined) opts.args.push(a);
    else if (a === "-X") {
      const v = argv[++i] || "";
      if (!v.startsWith("heapsize=")) usage(`unknown -X option ${v}`);
      opts.heapsize = parseSize(v.slice(9));
    } else if (a === "--romfs") opts.romfs = argv[++i];
    else if (a === "--stats") opts.stats = argv[++i];
    else if (a === "-c") opts.code = argv[++i];
    else if (a.startsWith("-")) usage(`unknown option ${a}`);
    else opts.script = path.resolve(a);
  }
  if (opts.script === undefined && opts.code === undefined) usage("no script (the REPL is not offered)");
  return opts;
}

/** Every file under dir, as [absolute path, bytes]. */
function tree(dir, out = []) {
  // in name order: the host filesystem's own order would become the
  // order the program lists its folders in
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tree(p, out);
    else if (e.isFile()) out.push([p, fs.readFileSync(p)]);
  }
  return out;
}

/** stdin without blocking: a board's serial is polled, never waited on. */
function serialReader() {
  let fd = 0;
  try {
    // Linux: a new open of the pipe, which can be made non-blocking on its own.
    fd = fs.openSync("/dev/stdin", fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    fd = 0;
  }
  const buf = Buffer.alloc(4096);
  let have = 0;
  let at = 0;
  let closed = false;
  return () => {
    if (at < have) return buf[at++];
    if (closed) return null;
    try {
      have = fs.readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === "EAGAIN" || e.code === "EWOULDBLOCK") return null;
      throw e;
    }
    at = 0;
    if (have === 0) {
      closed = true; // end of input, as a serial port with nothing attached
      return null;
    }
    return buf[at++];
  };
}

function writeAll(fd, bytes) {
  let off = 0;
  while (off < bytes.length) {
    try {
      off += fs.writeSync(fd, bytes, off, bytes.length - off);
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
    }
  }
}

/** The simulated board's hardware link: two pipe ends the PC side passed. */
function hardwareLink() {
  const spec = process.env.MOONSIM_FDS;
  if (!spec) return {};
  const [rfd, wfd] = spec.split(",").map(Number);
  return {
    link_send: (bytes) => writeAll(wfd, bytes),
    link_recv: (n) => {
      const out = Buffer.alloc(n);
      let got = 0;
      while (got < n) {
        const k = fs.readSync(rfd, out, got, n - got, null);
        if (k === 0) break; // the PC closed the link
        got += k;
      }
      return new Uint8Array(out.buffer, out.byteOffset, got);
    },
  };
}

/** Writes the interpreter's changes under root back to the real folder. */
const FLASH = "/flash"; // the flash folder inside the interpreter

/** os.urandom's source: the host's, or for a seeded simulated board
 * ($MOONSIM_SEED, not 0: its dice are seeded too) a fixed xorshift32
 * stream, so that a measured run repeats. The journal's volume tag comes
 * from urandom, and its letters moved a Game 7 round's peak by up to
 * 0.8 KB from run to run. */
function randomSource() {
  let x = Number(process.env.MOONSIM_SEED || 0) >>> 0;
  if (!x) return randomFillSync;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      bytes[i] = x & 255;
    }
    return bytes;
  };
}

/** The host's side of mirrorOut: paths under FLASH land under `folder`. */
function hostSink(folder) {
  const host = (p) => folder + p.slice(FLASH.length);
  return {
    file: (p, bytes) => fs.writeFileSync(host(p), bytes),
    mkdir: (p) => fs.mkdirSync(host(p), { recursive: true }),
    remove: (p) => fs.rmSync(host(p), { force: true }),
    rmdir: (p) => fs.rmdirSync(host(p)),
    rename: (a, b) => fs.renameSync(host(a), host(b)),
  };
}

function report(error) {
  if (error && error.name === "PythonError") {
    if (error.type === "SystemExit") {
      const code = /(-?\d+)\s*$/.exec(error.message);
      return code ? Number(code[1]) : 0;
    }
    process.stdout.write(error.message.endsWith("\n") ? error.message : error.message + "\n");
    return 1;
  }
  throw error;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const mp = await startMicroPython({
    heapsize: opts.heapsize,
    romfs: opts.romfs ? new Uint8Array(fs.readFileSync(opts.romfs)) : undefined,
    serialIn: serialReader(),
    serialOut: (bytes) => writeAll(1, bytes),
    host: { getenv: (name) => process.env[name] ?? null, randomFill: randomSource(), ...hardwareLink() },
  });
  const FS = mp.FS;
  const extra = (process.env.MICROPYPATH || "").split(":").filter((p) => p && fs.existsSync(p));
  for (const dir of extra) writeFiles(FS, tree(path.resolve(dir)));
  let first = [""];
  let script = opts.script;
  if (opts.script !== undefined) {
    const flash = path.dirname(path.resolve(opts.script));
    writeFiles(FS, tree(flash).map(([p, data]) => [FLASH + p.slice(flash.length), data]));
    mirrorOut(FS, FLASH, hostSink(flash));
    const cwd = process.cwd();
    const start = FLASH + (cwd.startsWith(flash + "/") ? cwd.slice(flash.length) : "");
    FS.chdir(start);
    // MicroPython keeps a current folder of its own once a ROMFS is mounted
    mp.runPython("import os\nos.chdir(" + JSON.stringify(start) + ")\ndel os");
    // As on a board, the flash folder is the current folder and "" is first
    // on the path: a module's __file__ is then its name ("app.mpy"), not a
    // path, whose length every loaded module would add to the heap.
    first = start === FLASH ? [""] : [FLASH];
    script = FLASH + "/" + path.basename(opts.script);
  }
  setPath(mp, first, extra.map((p) => path.resolve(p)));
  mp.runPython("import sys\nsys.argv[:] = " + JSON.stringify([script || "", ...opts.args]) + "\ndel sys");
  let stats = null;
  const trace = process.env.MOONWASM_TRACE; // one "step live-bytes" line per step, for finding where a peak is
  const record = (steps) => {
    if (!opts.stats) return;
    const live = liveHeap(mp);
    if (trace) fs.appendFileSync(trace, `${steps} ${live}\n`);
    const peak = stats === null || live > stats.peak;
    stats = { peak: Math.max(live, stats ? stats.peak : 0), live, steps, grown: stats ? stats.grown : 0 };
    if (peak) stats.grown = grownHeap(mp);
    fs.writeFileSync(opts.stats, JSON.stringify(stats)); // every step: a kill at any moment leaves the figures
  };
  try {
    if (opts.code !== undefined) mp.runPython(opts.code);
    else {
      mp.globals.set("__file__", script);
      mp.runPython(fs.readFileSync(opts.script, "utf8"));
    }
    record(0);
    drive(mp, { onStep: record });
    if (stats) {
      stats.grown = grownHeap(mp);
      fs.writeFileSync(opts.stats, JSON.stringify(stats));
    }
  } catch (e) {
    return report(e);
  }
  return 0;
}

process.exitCode = await main();
