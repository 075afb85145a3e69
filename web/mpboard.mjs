// The MicroPython-facing half of every 32-bit run: loading MicroPython's
// WebAssembly port, its serial link, mirroring a flash folder, driving a
// program one step per call, and reading the live heap. No Node API is
// used here, so the browser page loads this same module; web/run.mjs adds
// the Node half (files, pipes, process) for the tests and the benches.
//
// Facts about the port (1.29.0-6) this module is written around:
// - A garbage collection, asked for by gc.collect() or by a failed
//   allocation, runs only when the outermost JS -> Python call returns.
//   So a long program is driven one step (one app loop pass, one test) per
//   call, and the live heap is read in a call of its own after a call that
//   collects.
// - The heap grows on demand: its total is no cap, and gc.mem_free()
//   counts ~128 MiB of possible growth.
// - Errors from the filesystem carry Emscripten's numbers (ENOENT is 44)
//   while the built-in errno module says 2: the errno module of WASM_ROM
//   below gives the firmware the numbers its filesystem raises, as a
//   board's errno does. `os` has no getenv and no urandom; the `wasmhost`
//   module stands in for them (and BOARD_BUILTINS below says which modules
//   are made to be what a board has).
// - The filesystem is Emscripten's MEMFS, in memory only.

import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

// Error numbers of this port's filesystem (Emscripten's). Checked against
// the real errors by tests/wasm/test_wasm_runner.py.
export const EMSCRIPTEN_ERRNO = {
  EPERM: 63, ENOENT: 44, EIO: 29, EBADF: 8, EAGAIN: 6, ENOMEM: 48, EACCES: 2,
  EEXIST: 20, ENODEV: 43, ENOTDIR: 54, EISDIR: 31, EINVAL: 28, ENOSPC: 51,
  ENOTEMPTY: 55,
};

// Modules the host puts on the interpreter's path, after everything else
// (a board's built-in modules): the errno this port should have.
export const WASM_ROM = {
  "errno.py":
    "# The built-in errno with the numbers this port's filesystem raises\n" +
    "# (Emscripten's); written by web/mpboard.mjs.\n" +
    "import sys\n_p = sys.path\nsys.path = []\ntry:\n    from errno import *\nfinally:\n    sys.path = _p\n    del _p\n" +
    Object.entries(EMSCRIPTEN_ERRNO).map(([k, v]) => `${k} = ${v}\n`).join("") +
    "errorcode = {" + Object.entries(EMSCRIPTEN_ERRNO).map(([k, v]) => `${v}: "${k}"`).join(", ") + "}\n",
};
export const WASM_ROM_DIR = "/wasm-rom";

// The modules a stock board has, under the names a program imports. This
// build freezes micropython-lib's pure-Python extensions over some of its
// built-in modules (binascii, io, os with os.path and collections, time),
// and adds modules that stock Pico and ESP32 firmware do not have (types).
// Left as they are, a program here would load Python code where a board
// loads nothing, and every heap figure would carry it (about 2 KB for a
// game session). So the built-in takes its name ("u" + name reaches the
// built-in under an extension), a module no board has yields no names
// (`from types import X` fails as on a board; the sys.modules entry is
// None, so a bare `import types` gives None rather than an ImportError),
// and `os` is the built-in's names plus urandom (which a board's os has
// and this one lacks), from the host's random source: a small module of
// WASM_ROM, the one part a board does not load.
export const BOARD_BUILTINS = ["binascii", "io", "time"];
export const NOT_ON_A_BOARD = ["types"];
WASM_ROM["os.py"] =
  "# The built-in os with the urandom a board's os has; written by\n# web/mpboard.mjs.\n" +
  "from uos import *\n\n\ndef urandom(n):\n    import wasmhost\n    from uctypes import addressof\n\n" +
  "    b = bytearray(n)\n    wasmhost.random_into(addressof(b), n)\n    return bytes(b)\n";

function boardModules(mp) {
  mp.runPython(
    "def _board():\n    import sys\n    p = sys.path\n    sys.path = [" + JSON.stringify(WASM_ROM_DIR) + "]\n" +
      "    try:\n        import os\n    finally:\n        sys.path = p\n" +
      BOARD_BUILTINS.map((n) => `    import u${n}\n    sys.modules["${n}"] = u${n}\n`).join("") +
      NOT_ON_A_BOARD.map((n) => `    sys.modules["${n}"] = None\n`).join("") +
      "_board()\ndel _board",
  );
}

// The path of a board with ROMFS (MicroPython 1.25+); the host's folders
// come after it.
export const BOARD_PATH = ["", ".frozen", "/rom", "/rom/lib", "/lib"];

const enc = new TextEncoder();

/** Start one interpreter.
 *
 * options: heapsize (bytes, the starting heap: it grows), romfs (bytes of
 * a ROMFS image, mounted at /rom), serialIn() -> a byte or null when none
 * waits (never blocks), serialOut(Uint8Array), host: what the `wasmhost`
 * module reaches (getenv(name), link_send(Uint8Array), link_recv(n) ->
 * Uint8Array, randomFill(Uint8Array)); each is optional.
 */
export async function startMicroPython({ heapsize = 256 * 1024, romfs, serialIn, serialOut, host = {}, url } = {}) {
  let capture = null; // bytes printed while reading micropython.mem_info()
  const out = (b) => (capture ? capture.push(...b) : serialOut && serialOut(b));
  const mp = await loadMicroPython({
    heapsize,
    url,
    romfs,
    linebuffer: false,
    stdin: serialIn || (() => null),
    stdout: out,
    stderr: out,
  });
  mp.captureOutput = (fn) => {
    capture = [];
    try {
      fn();
      return new TextDecoder().decode(new Uint8Array(capture));
    } finally {
      capture = null;
    }
  };
  const FS = mp.FS;
  FS.mkdir(WASM_ROM_DIR);
  for (const [name, text] of Object.entries(WASM_ROM)) FS.writeFile(WASM_ROM_DIR + "/" + name, text);
  // Bytes cross as (address, length) in the interpreter's memory, never as
  // proxy objects: a Python object handed to JS stays referenced from the
  // Python heap until JS's own garbage collector lets it go, which would
  // pin every frame sent to the display and spoil the heap figures.
  const heap = () => mp._module.HEAPU8;
  mp.registerJsModule("wasmhost", {
    getenv: (name) => (host.getenv ? host.getenv(name) : null),
    link_send: (addr, n) => host.link_send(heap().slice(addr, addr + n)),
    link_recv_into: (addr, n) => {
      const got = host.link_recv(n);
      heap().set(got, addr);
      return got.length;
    },
    random_into: (addr, n) => {
      // Node 18 has no global crypto: its host passes node:crypto's
      (host.randomFill || ((a) => globalThis.crypto.getRandomValues(a)))(heap().subarray(addr, addr + n));
    },
    drive: (fn) => {
      mp.driven = fn;
    },
  });
  boardModules(mp);
  return mp;
}

/** Set sys.path: the board's path with `extra` folders after it, and the
 * port's errno module last. */
export function setPath(mp, first, extra = []) {
  const path = [...first, ...BOARD_PATH.filter((p) => !first.includes(p)), ...extra, WASM_ROM_DIR];
  mp.runPython("import sys\nsys.path[:] = " + JSON.stringify(path) + "\ndel sys");
}

/** Create a folder and its parents in the interpreter's filesystem. */
export function makeDirs(FS, path) {
  let p = "";
  for (const part of path.split("/").filter(Boolean)) {
    p += "/" + part;
    if (!FS.analyzePath(p).exists) FS.mkdir(p);
  }
}

/** Copy files into the interpreter's filesystem: [[absolute path, bytes]]. */
export function writeFiles(FS, files) {
  for (const [path, data] of files) {
    makeDirs(FS, path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, typeof data === "string" ? enc.encode(data) : data);
  }
}

/** Report every change the program makes under `root` to `sink`, as it
 * happens, so that the host's copy of the flash folder is what a power cut
 * at any moment would leave:
 *   sink.file(path, bytes)  the file's whole content after a write
 *   sink.mkdir(path), sink.remove(path), sink.rmdir(path), sink.rename(a, b)
 */
export function mirrorOut(FS, root, sink) {
  const under = (p) => typeof p === "string" && (p === root || p.startsWith(root + "/"));
  const content = (path) => {
    const node = FS.lookupPath(path).node;
    return node.contents ? node.contents.subarray(0, node.usedBytes) : new Uint8Array(0);
  };
  const wrap = (name, after) => {
    const orig = FS[name];
    FS[name] = function (...args) {
      const r = orig.apply(this, args);
      after(args, r);
      return r;
    };
  };
  const fileOf = (stream) => {
    if (stream && under(stream.path) && FS.isFile(stream.node.mode)) sink.file(stream.path, content(stream.path));
  };
  wrap("open", (args, stream) => fileOf(stream));
  wrap("write", (args) => fileOf(args[0]));
  wrap("truncate", (args) => under(args[0]) && sink.file(args[0], content(args[0])));
  wrap("ftruncate", (args) => fileOf(FS.getStream(args[0])));
  wrap("mkdir", (args) => under(args[0]) && sink.mkdir(args[0]));
  wrap("unlink", (args) => under(args[0]) && sink.remove(args[0]));
  wrap("rmdir", (args) => under(args[0]) && sink.rmdir(args[0]));
  wrap("rename", (args) => {
    const [a, b] = args;
    if (under(a) && under(b)) sink.rename(a, b);
    else if (under(b)) sink.file(b, content(b));
    else if (under(a)) sink.remove(a);
  });
}

/** The live heap in bytes: a collection, which runs when its call returns,
 * then a call that reads what is allocated. */
export function liveHeap(mp) {
  // the functions are looked up once: each lookup is a proxy the Python
  // side keeps until JS lets it go
  const gc = (mp._gc ||= { collect: mp.pyimport("gc").collect, mem_alloc: mp.pyimport("gc").mem_alloc });
  gc.collect();
  return gc.mem_alloc();
}

/** The heap as grown so far ("GC: total" of micropython.mem_info()): an
 * upper bound only, since the port grows it rather than collect mid-call. */
export function grownHeap(mp) {
  const info = (mp._mem_info ||= mp.pyimport("micropython").mem_info);
  const text = mp.captureOutput(() => info());
  const m = /GC: total: (\d+)/.exec(text);
  return m ? Number(m[1]) : null;
}

/** Run the function the program handed over (wasmhost.drive(fn)) one call
 * at a time, until it returns a false value or maxSteps calls are made.
 * onStep(n) runs between calls (where collections have happened). */
export function drive(mp, { onStep, maxSteps = Infinity } = {}) {
  const fn = mp.driven;
  if (!fn) return 0;
  let n = 0;
  while (n < maxSteps) {
    const more = fn();
    n += 1;
    if (onStep) onStep(n);
    if (!more) break;
  }
  return n;
}
