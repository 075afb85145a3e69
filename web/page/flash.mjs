// The board's flash folder in the browser: every change the firmware makes
// under the data folder is written to localStorage as it happens (through
// mpboard.mjs's mirrorOut), and put back into the interpreter's in-memory
// filesystem before the next boot. localStorage is written synchronously,
// so closing the page at any moment leaves what a power cut would: every
// event the firmware committed, and nothing it had not.

const PREFIX = "moontable.flash:";

function toBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text) {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export class BrowserFlash {
  /** storage: a Storage (localStorage); onError(message) hears about a
   * write the browser refused (storage full or disabled). */
  constructor(storage, onError = () => {}) {
    this.storage = storage;
    this.onError = onError;
    this.changed = () => {};
  }

  _set(key, value) {
    try {
      this.storage.setItem(key, value);
    } catch (e) {
      this.onError(`The browser refused to save ${key.slice(PREFIX.length)} (${e.name}): free some space for this site, or the last changes are lost when the page closes.`);
    }
  }

  /** What the last session left: {dirs: [path], files: [[path, bytes]],
   * damaged: [path]}. An entry that cannot be read (changed by hand or by
   * another program) is left out and named in `damaged`, and kept in
   * storage as it is; the firmware then boots as with that file missing,
   * and says what it could not resume. */
  load() {
    const dirs = [];
    const files = [];
    const damaged = [];
    for (let i = 0; i < this.storage.length; i++) {
      const key = this.storage.key(i);
      if (!key.startsWith(PREFIX)) continue;
      const path = key.slice(PREFIX.length);
      const value = this.storage.getItem(key);
      if (!path.startsWith("/")) damaged.push(path);
      else if (value === "dir") dirs.push(path);
      else if (value !== null && value.startsWith("file:")) {
        try {
          files.push([path, fromBase64(value.slice(5))]);
        } catch {
          damaged.push(path);
        }
      } else damaged.push(path);
    }
    dirs.sort((a, b) => a.length - b.length);
    return { dirs, files, damaged };
  }

  /** The sink for mirrorOut (mpboard.mjs). */
  sink() {
    const self = this;
    const moveAll = (a, b) => {
      const keys = [];
      for (let i = 0; i < self.storage.length; i++) {
        const k = self.storage.key(i);
        if (k === PREFIX + a || k.startsWith(PREFIX + a + "/")) keys.push(k);
      }
      for (const k of keys) {
        const v = self.storage.getItem(k);
        self.storage.removeItem(k);
        self._set(PREFIX + b + k.slice(PREFIX.length + a.length), v);
      }
    };
    return {
      file(path, bytes) {
        self._set(PREFIX + path, "file:" + toBase64(bytes));
        self.changed(path);
      },
      mkdir(path) {
        self._set(PREFIX + path, "dir");
      },
      remove(path) {
        self.storage.removeItem(PREFIX + path);
        self.changed(path);
      },
      rmdir(path) {
        self.storage.removeItem(PREFIX + path);
      },
      rename(a, b) {
        moveAll(a, b);
        self.changed(b);
      },
    };
  }

  /** Forget everything (a factory reset of the page's board). */
  erase() {
    const keys = [];
    for (let i = 0; i < this.storage.length; i++) if (this.storage.key(i).startsWith(PREFIX)) keys.push(this.storage.key(i));
    for (const k of keys) this.storage.removeItem(k);
  }
}
