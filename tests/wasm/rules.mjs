#!/usr/bin/env node
// The rules-core tests (tests/rules/test_*.py) under MicroPython's 32-bit
// WebAssembly port, with the runner contract of tests/upy_runner.py: each
// file in a fresh interpreter, each test in a call of its own (the port
// collects garbage only between calls from JS), "FAIL ..." lines with
// tracebacks, then the closing line
//
//   wasm32: N passed, N failed
//
// and exit status 1 on any failure, 2 if nothing ran.
//
//   node tests/wasm/rules.mjs [--lib DIR] [--root DIR] [NAME-FILTER]
//
// --lib DIR puts DIR first on the path: tests/upy_build.py compiles the
// rules core to .mpy there, which is what the board runs. --root DIR runs
// the tests of another checkout (its tests/rules), as the runner's own
// test does with a throw-away folder.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setPath, startMicroPython, writeFiles } from "../../web/mpboard.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));

function files(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "__pycache__") files(p, out);
    } else if (e.isFile()) out.push([p, fs.readFileSync(p)]);
  }
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  let lib = null;
  if (args[0] === "--lib") {
    lib = path.resolve(args[1]);
    args.splice(0, 2);
    if (!fs.existsSync(lib)) throw new Error(`--lib ${lib}: no such folder (build it with tests/upy_build.py)`);
  }
  let ROOT = path.resolve(HERE, "..", "..");
  if (args[0] === "--root") {
    ROOT = path.resolve(args[1]);
    args.splice(0, 2);
  }
  const RULES = path.join(ROOT, "tests", "rules");
  const wanted = args[0] || "";
  const inputs = [];
  // What the rules tests read besides themselves: the example logs and a
  // game page whose examples they check.
  for (const dir of [RULES, path.join(ROOT, "tests", "data"), path.join(ROOT, "docs", "games")]) {
    if (fs.existsSync(dir)) files(dir, inputs);
  }
  // and the solver's corpus of hardest set-ups (bench/solver.py --adversarial)
  const corpus = path.join(ROOT, "bench", "solver_corpus.jsonl");
  if (fs.existsSync(corpus)) inputs.push([corpus, fs.readFileSync(corpus)]);
  if (lib) files(lib, inputs);
  else if (fs.existsSync(path.join(ROOT, "shared_rules"))) files(path.join(ROOT, "shared_rules"), inputs); // as source
  inputs.push([path.join(HERE, "rules_contract.py"), fs.readFileSync(path.join(HERE, "rules_contract.py"))]);
  const names = fs
    .readdirSync(RULES)
    .filter((n) => n.startsWith("test_") && n.endsWith(".py") && n.includes(wanted))
    .map((n) => n.slice(0, -3))
    .sort();
  console.log(`32-bit MicroPython (WebAssembly); rules core from ${lib || "source"}`);
  let passed = 0;
  let failed = 0;
  for (const name of names) {
    const mp = await startMicroPython({ heapsize: 64 * 1024, serialOut: (b) => process.stdout.write(b) });
    writeFiles(mp.FS, inputs);
    mp.runPython(`import os\nos.chdir(${JSON.stringify(RULES)})\ndel os`);
    setPath(mp, [...(lib ? [lib] : []), ROOT, RULES, HERE]);
    const contract = mp.pyimport("rules_contract");
    const tests = contract.load(name);
    if (tests === null) {
      failed += 1;
      continue;
    }
    for (const t of tests.split(" ").filter(Boolean)) {
      if (contract.call(t)) passed += 1;
      else failed += 1;
    }
  }
  console.log(`wasm32: ${passed} passed, ${failed} failed`);
  return failed ? 1 : passed ? 0 : 2;
}

process.exitCode = await main();
