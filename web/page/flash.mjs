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
    // Paths whose latest content the browser refused to store: storage
    // still holds the copy saved before. Renaming such a file over
    // another (the commit of an atomic write: settings.json, index.json,
    // a journal cut back at boot) is not copied to storage, so a failed
    // write never replaces a good file with an empty or partial one.
    this.unsaved = new Set();
  }

  /** Store one entry; false (and onError told) when the browser refuses. */
  _set(key, value) {
    try {
      this.storage.setItem(key, value);
      return true;
    } catch (e) {
      const path = key.slice(PREFIX.length);
      const full = e && (e.name === "QuotaExceededError" || e.code === 22);
      this.onError(
        (full ? "This browser's storage for the page is full: " : "") +
          `the browser refused to save ${path} (${e.name}); the copy saved before is kept. ` +
          "To keep playing safely, free some space for this site (download the finished games below first), " +
          "or the changes since are lost when the page closes.",
      );
      return false;
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

  /** Files of `saved` (load()) that stand where a folder must be (one of
   * `folders`, or the folder of another entry): each is set aside under
   * the same name + ".file1" (".file2", ... if taken), in storage and in
   * `saved`, as the board moves a file named like its data folder aside
   * (firmware/store/repair.py). Before, one such entry stopped the page
   * for good. Returns a sentence per entry moved. */
  setAside(saved, folders) {
    const need = new Set(folders);
    const parents = (p) => {
      for (let i = p.lastIndexOf("/"); i > 0; i = p.lastIndexOf("/", i - 1)) need.add(p.slice(0, i));
    };
    for (const d of saved.dirs) {
      need.add(d);
      parents(d);
    }
    for (const [p] of saved.files) parents(p);
    const taken = new Set([...saved.dirs, ...saved.files.map(([p]) => p)]);
    const notes = [];
    for (const entry of saved.files) {
      const p = entry[0];
      if (!need.has(p)) continue;
      let n = 1;
      while (taken.has(`${p}.file${n}`) || this.storage.getItem(PREFIX + `${p}.file${n}`) !== null) n += 1;
      const to = `${p}.file${n}`;
      const value = this.storage.getItem(PREFIX + p);
      if (!this._set(PREFIX + to, value)) continue;
      this.storage.removeItem(PREFIX + p);
      taken.add(to);
      entry[0] = to;
      notes.push(`${p} was a file where a folder belongs: set aside as ${to}`);
    }
    return notes;
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
        const key = PREFIX + path;
        if (self._set(key, "file:" + toBase64(bytes))) self.unsaved.delete(path);
        else {
          self.unsaved.add(path);
          // a file just opened for writing was stored empty: an empty
          // journal or index is worse than none, so leave no copy of it
          if (self.storage.getItem(key) === "file:") self.storage.removeItem(key);
        }
        self.changed(path);
      },
      mkdir(path) {
        self._set(PREFIX + path, "dir");
      },
      remove(path) {
        self.storage.removeItem(PREFIX + path);
        self.unsaved.delete(path);
        self.changed(path);
      },
      rmdir(path) {
        self.storage.removeItem(PREFIX + path);
      },
      rename(a, b) {
        if (self.unsaved.has(a)) {
          // a's last write was refused: what storage has of a is not the
          // file being committed. b keeps the copy saved before.
          self.storage.removeItem(PREFIX + a);
          self.unsaved.delete(a);
          self.unsaved.add(b);
          self.changed(b);
          return;
        }
        moveAll(a, b);
        self.unsaved.delete(b);
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
