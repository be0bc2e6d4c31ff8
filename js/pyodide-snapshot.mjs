// Boneyard's interpreter module: PyScript imports it (pyscript.toml `interpreter`) and calls its
// loadPyodide(options). It boots Pyodide from the memory snapshot that tools/snapshot.py built (Python
// already started, the stdlib and the engine already imported), and boots the normal way whenever the
// snapshot is missing, does not match the files served beside it, or fails to restore. Either way it
// then unpacks the page's Python (py/engine.zip, py/ui.zip, fetched while Pyodide starts) into Python's
// working folder. The player never sees the difference but in speed; developers get one console line
// saying which way it booted, and `window.boneyardSnapshot` says the same for tests.
import * as runtime from "../vendor/pyodide/pyodide.mjs";

export const version = runtime.version;

const here = import.meta.url;
const INDEX_URL = new URL("../vendor/pyodide/", here).href;
const MANIFEST_URL = new URL("../snapshot/manifest.json", here).href;
const FORMAT = 3;
const HOME = "/home/pyodide"; // Python's working folder: `import boneyard` and `import ui` find them here
const started = performance.now();
performance.mark("boneyard:loader");
// Phase marks for the start-up benchmark (tests/bench/bench_boot.py): "boneyard:<phase>".
const mark = (name) => performance.mark("boneyard:" + name);

// The WebAssembly, compiled at once (boot.js starts it) while the rest of Pyodide loads: streamed from the page's own
// fetch() (the network or the service worker's cache, as `application/wasm`), so Chromium keeps its
// code cache for the module and a return visit does not compile it again. (Not a <link rel="preload">:
// a preloaded response reaches the streaming compiler without that cache.) Pyodide asks for the file
// later, once its own JS has loaded: it gets a stand-in, and instantiating the stand-in instantiates the
// module compiled here. Should streaming fail (a host that sends another type), the bytes are compiled
// whole instead.
const WASM_URL = new URL("pyodide.asm.wasm", INDEX_URL).href;
const plainFetch = globalThis.fetch;
const begun = globalThis.boneyardWasm; // boot.js started it while the page parsed
const compiling = begun && begun.url === WASM_URL ? begun.module : WebAssembly.compileStreaming(plainFetch(WASM_URL));
const wasmModule = compiling.then((module) => {
  mark("wasm-compiled");
  return module;
});
wasmModule.catch(() => {});
const standIns = new WeakSet();
globalThis.fetch = function (input, init) {
  const url = input instanceof Request ? input.url : String(input);
  if (url !== WASM_URL) return plainFetch.call(this, input, init);
  const standIn = new Response(null, { headers: { "Content-Type": "application/wasm" } });
  standIns.add(standIn);
  return Promise.resolve(standIn);
};
// Pyodide's memory, kept as it is instantiated: the restore copies the snapshot's pages that are the
// module's own data from it (see takeWasmPages).
let wasmMemory = null;
function keepMemory(result) {
  const memory = result.instance.exports.memory;
  if (memory instanceof WebAssembly.Memory) wasmMemory = memory;
  return result;
}
const plainInstantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async function (source, imports) {
  const response = await source;
  if (!standIns.has(response)) return plainInstantiateStreaming.call(this, response, imports);
  let module;
  try {
    module = await wasmModule;
  } catch (error) {
    console.info(`Boneyard: the WebAssembly could not stream (${error.message || error}); compiling it whole`);
    const answer = await plainFetch(WASM_URL);
    if (!answer.ok) throw new Error(`${WASM_URL} answered ${answer.status}`);
    return keepMemory(await WebAssembly.instantiate(await answer.arrayBuffer(), imports));
  }
  return keepMemory({ module, instance: await WebAssembly.instantiate(module, imports) });
};

const status = { used: false, reason: "not started", ms: null };
globalThis.boneyardSnapshot = status;


async function sha256(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.arrayBuffer();
}

async function readManifest() {
  const response = await fetch(MANIFEST_URL);
  if (!response.ok) throw new Error(`no snapshot (manifest ${response.status})`);
  const manifest = await response.json();
  if (manifest.format !== FORMAT) throw new Error(`snapshot format ${manifest.format}, expected ${FORMAT}`);
  if (manifest.pyodide !== version) throw new Error(`snapshot of Pyodide ${manifest.pyodide}, runtime is ${version}`);
  return manifest;
}

// The page's Python, fetched at once (one request a bundle) and unpacked once Pyodide is up.
const BUNDLES = ["py/engine.zip", "py/ui.zip"];
const bundles = Promise.all(BUNDLES.map((path) => fetchBytes(new URL("../" + path, here).href)));
bundles.catch(() => {});

// Every served file the snapshot depends on must be the one it was made from: the page's bundles (the
// stdlib zip is checked after the boot, in Pyodide's file system, so it is not downloaded twice).
async function checkServedFiles(manifest) {
  const served = await bundles;
  const checks = Object.entries(manifest.checks).filter(([path]) => path !== "vendor/pyodide/python_stdlib.zip");
  await Promise.all(checks.map(async ([path, expected]) => {
    const index = BUNDLES.indexOf(path);
    const bytes = index >= 0 ? served[index] : await fetchBytes(new URL("../" + path, here).href);
    if ((await sha256(bytes)) !== expected) throw new Error(`${path} differs from the snapshot's copy`);
  }));
}

// The members of a zip bundle as [name, bytes] (build_site.py stores them uncompressed; deflated members
// are inflated too). Reading them here, in JS, instead of with Python's zipfile keeps the interpreter
// idle until the app starts: the first run of any Python code is slow while WebAssembly warms up.
async function zipMembers(buffer) {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("a Python bundle is not a zip file");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  const members = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("a Python bundle's directory is damaged");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + skip;
    if (name.endsWith("/")) continue;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    if (method === 0) members.push([name, data]);
    else if (method === 8) members.push([name, new Uint8Array(await new Response(
      new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer())]);
    else throw new Error(`a Python bundle uses zip method ${method}`);
  }
  return members;
}

// Checked-hash byte-code of our modules and of PyScript's package (tools/snapshot.py): optional, Python
// uses a .pyc only if it matches its source, and without the file every module compiles from source.
const pycache = fetch(new URL("../py/pycache.zip", here).href)
  .then((response) => (response.ok ? response.arrayBuffer().then(zipMembers) : []))
  .catch(() => []);
const unpacked = bundles.then((served) => Promise.all([...served.map(zipMembers), pycache]));
unpacked.catch(() => {});

// Write the bundles' modules (and the byte-code) into Python's working folder, then let the import system see them. Only
// the folders' finders are told: importlib.invalidate_caches() would also import importlib.metadata
// (and email) on the way, a fifth of a second for nothing.
async function unpackBundles(pyodide) {
  for (const members of await unpacked) {
    for (const [name, data] of members) {
      const path = `${HOME}/${name}`;
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      pyodide.FS.writeFile(path, data);
    }
  }
  pyodide.runPython("import sys, importlib.machinery as m\n"
    + "[f.invalidate_caches() for f in list(sys.path_importer_cache.values()) if isinstance(f, m.FileFinder)]\n"
    + "del sys, m");
  mark("bundles-unpacked");
}

// The file is the gzip of the snapshot's pages that are not all zero; manifest.runs says where each
// stretch goes ([offset, length]). Inflate while downloading, straight into the zeroed buffer that
// Pyodide already holds. Gzip's own checksum and length catch a damaged file; the sizes are checked here.
// (A copy the service worker inflated was made from a file that passed those checks.)
async function fill(bytes, manifest) {
  const response = await fetch(new URL("../snapshot/" + manifest.file, here).href);
  if (!response.ok) throw new Error(`the snapshot file answered ${response.status}`);
  const runs = manifest.runs;
  let run = 0;
  let offset = runs.length ? runs[0][0] : 0;
  let left = runs.length ? runs[0][1] : 0;
  // The service worker keeps the snapshot inflated in its cache (js/sw.template.js): then only copy it.
  const inflated = response.headers.get("X-Boneyard-Inflated") === "1";
  status.inflated = inflated;
  // That copy is read whole (boot.js has a worker read it from the cache and hands over its bytes;
  // else in one go here, no chunk-by-chunk reads on a busy main thread); the gzipped file is inflated
  // as it arrives.
  let chunks;
  if (inflated) {
    const whole = response.boneyardBytes instanceof ArrayBuffer ? response.boneyardBytes : await response.arrayBuffer();
    chunks = [new Uint8Array(whole)];
  } else {
    chunks = response.body.pipeThrough(new DecompressionStream("gzip"));
  }
  for await (const value of chunks) {
    let at = 0;
    while (at < value.length) {
      if (left === 0) throw new Error("the snapshot file is longer than its runs");
      const take = Math.min(left, value.length - at);
      bytes.set(value.subarray(at, at + take), offset);
      at += take;
      offset += take;
      left -= take;
      if (left === 0 && ++run < runs.length) [offset, left] = runs[run];
    }
  }
  if (left !== 0 || run < runs.length - 1) throw new Error("the snapshot file is shorter than its runs");
  mark("snapshot-unpacked");
}

// The snapshot's pages that are the WebAssembly module's own data, unchanged by Python (manifest.wasm_runs,
// 3.4 MB), are not in the file: the memory Pyodide has just instantiated holds them (its data segments;
// Pyodide calls its fsInit hook, where the restore waits, before any of its code runs). They are copied
// from there as soon as that hook is called and checked while the snapshot may still be arriving: their
// SHA-256 must be the one the build saw (tools/snapshot.py `pack`), or the page boots normally.
function takeWasmPages(manifest) {
  if (!wasmMemory) throw new Error("the WebAssembly's memory was not seen");
  const memory = new Uint8Array(wasmMemory.buffer);
  const header = manifest.bytes - manifest.heap_bytes;
  let total = 0;
  for (const [, length] of manifest.wasm_runs) total += length;
  const taken = new Uint8Array(total);
  let at = 0;
  for (const [offset, length] of manifest.wasm_runs) {
    const from = offset - header;
    if (from < 0 || from + length > memory.length) throw new Error("the snapshot's WebAssembly pages are out of the memory");
    taken.set(memory.subarray(from, from + length), at);
    at += length;
  }
  return taken;
}

// ... and written into the snapshot's buffer, where the file left them out.
function putWasmPages(bytes, manifest, taken) {
  let at = 0;
  for (const [offset, length] of manifest.wasm_runs) {
    bytes.set(taken.subarray(at, at + length), offset);
    at += length;
  }
}

// Start at once (boot.js asked for these files from the top of the page: from the service worker's
// cache on a return visit; fetch() hands over its responses). As soon as the manifest gives the heap's
// size, there is a buffer for it: Pyodide can size its memory and compile the WebAssembly while the
// snapshot is still arriving into that buffer.
const manifestReady = readManifest();
const snapshotReady = manifestReady.then((manifest) => {
  const bytes = new Uint8Array(manifest.bytes);
  const filled = Promise.all([fill(bytes, manifest), checkServedFiles(manifest)]);
  filled.catch(() => {});
  return { manifest, bytes, filled };
});
// A failure here is handled in loadPyodide; never let it surface as an unhandled rejection.
snapshotReady.catch(() => {});

function afterRestore(pyodide, manifest) {
  mark("restored");
  const zip = manifest.stdlib_zip;
  const stdlib = pyodide.FS.readFile(zip);
  return sha256(stdlib).then((actual) => {
    if (actual !== manifest.checks["vendor/pyodide/python_stdlib.zip"]) {
      throw new Error("python_stdlib.zip differs from the snapshot's");
    }
    // The heap is the one saved at build time: reseed what was seeded then. (The finders forget the
    // file system they saw once the page's files are unpacked, as after a normal boot.)
    pyodide.runPython("import random; random.seed(); del random");
    mark("reseeded");
  });
}

function report(used, reason, pyodide) {
  // For developers and tests: the interpreter, out of JSON.stringify's way.
  Object.defineProperty(status, "interpreter", { value: pyodide, configurable: true, enumerable: false });
  status.used = used;
  status.reason = reason;
  status.ms = Math.round(performance.now() - started);
  if (used) console.info(`Boneyard: Python restored from its snapshot (${status.ms} ms after the loader started)`);
}

async function normalBoot(options, error) {
  const reason = error.message || String(error);
  console.info(`Boneyard: starting Python without the snapshot: ${reason}`);
  const pyodide = await runtime.loadPyodide(options);
  report(false, reason, pyodide);
  return pyodide;
}

async function restoreOrStart(plain) {
  let snapshot;
  try {
    snapshot = await snapshotReady;
  } catch (error) {
    return normalBoot(plain, error);
  }
  // Pyodide compiles and instantiates at once, then waits (its fsInit hook) until the buffer is filled,
  // the served files are checked and the pages from its memory are copied and checked; only then does
  // it restore the heap. If the snapshot fails meanwhile, that boot is left waiting for ever (it never
  // restores a half-filled heap) and a normal boot starts instead.
  let failed;
  const failure = new Promise((resolve, reject) => { failed = reject; });
  failure.catch(() => {});
  const hold = (error) => {
    failed(error);
    return new Promise(() => {});
  };
  const held = snapshot.filled.then(() => undefined, hold);
  const fsInit = () => {
    // The pages are taken now (the executor runs at once), before Pyodide runs any code.
    const taken = new Promise((resolve) => resolve(takeWasmPages(snapshot.manifest)));
    const checked = taken.then(sha256).then((digest) => {
      if (digest !== snapshot.manifest.wasm_sha256) throw new Error("the WebAssembly's data differs from the snapshot's");
      mark("wasm-pages-checked");
    });
    return Promise.all([taken, checked, held]).then(([pages]) => putWasmPages(snapshot.bytes, snapshot.manifest, pages)).catch(hold);
  };
  let pyodide;
  try {
    pyodide = await Promise.race([
      runtime.loadPyodide({ ...plain, _loadSnapshot: snapshot.bytes, fsInit }),
      failure,
    ]);
    await afterRestore(pyodide, snapshot.manifest);
  } catch (error) {
    return normalBoot(plain, error);
  }
  report(true, "restored", pyodide);
  return pyodide;
}

async function boot(plain) {
  const pyodide = await restoreOrStart(plain);
  await unpackBundles(pyodide);
  return pyodide;
}

// Python's output goes to the handlers PyScript passes to loadPyodide; the boot below starts before
// that call, so it writes through these forwarders (to the console until PyScript's arrive).
const output = { stdout: null, stderr: null };
const forward = (name, fallback) => (text) => (output[name] || fallback)(text);

// Start Python at once. index.html imports this module before PyScript, and PyScript calls
// loadPyodide only after its own set-up (~0.5 s later); by then the runtime is downloading and
// compiling and the snapshot unpacking, so that call just joins the boot under way.
const early = boot({ indexURL: INDEX_URL, stdout: forward("stdout", console.log), stderr: forward("stderr", console.warn) });
early.catch(() => {});

export async function loadPyodide(options = {}) {
  mark("pyscript-asks");
  const { stdout, stderr, indexURL, ...rest } = options;
  if (stdout) output.stdout = stdout;
  if (stderr) output.stderr = stderr;
  if (Object.keys(rest).length) {
    // Options the early boot could not know (packages, a lock file): start a plain Pyodide with them.
    const reason = new Error(`options ${Object.keys(rest).join(", ")} need a fresh start`);
    const pyodide = await normalBoot({ ...options, indexURL: INDEX_URL }, reason);
    await unpackBundles(pyodide);
    return pyodide;
  }
  return early;
}
