// Make Boneyard's Pyodide memory snapshot with Node and the vendored runtime.
//
//     node tools/snapshot.mjs SPEC.json
//
// tools/snapshot.py (called by tools/build_site.py) writes SPEC and caches the result; run this by hand
// only to debug. SPEC is JSON:
//   {"pyodide": "/abs/dir/with/pyodide.mjs", "files": {"/home/pyodide/boneyard/core.py": "/abs/src", ...},
//    "warm": "python code that imports what should be warm", "out": "/abs/out.bin", "report": "/abs/out.json",
//    "pyscript": "/abs/dir/with/pyscript/core-*.js" or null, "pycache": "/abs/dir for the .pyc files",
//    "initial": "/abs/memory.bin" (the memory when Pyodide calls fsInit, before Python has run)}
//
// Pyodide starts from scratch with `_makeSnapshot: true`, the files are written where PyScript's
// [files] table puts them in the page (so the imported modules' paths are the page's paths), the warm
// code runs, and the snapshot is saved raw (tools/snapshot.py packs it for the page).
// The snapshot holds the wasm heap only: the files written here are not in it, the page's own files
// are written by PyScript as usual, and tools/snapshot.py records their hashes so the page can check
// that what it serves is what was imported here.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const HOME = "/home/pyodide";

// PyScript's Python package, as PyScript writes it on every start: the object literal of folders and
// file texts inside its core bundle ({pyscript: {"__init__.py": "...", ...}}), read out and evaluated.
function pyscriptPackage(core) {
  const text = fs.readFileSync(core, "utf8");
  const start = text.indexOf('(".",{pyscript:');
  if (start < 0) return [];
  let end = text.indexOf("{", start);
  const open = end;
  let depth = 0;
  let quote = null;
  let escaped = false;
  for (; end < text.length; end++) {
    const c = text[end];
    if (quote) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) break;
  }
  const tree = Function(`return (${text.slice(open, end + 1)})`)();
  const files = [];
  const walk = (folder, node) => {
    for (const [name, value] of Object.entries(node)) {
      if (typeof value === "string") files.push([`${folder}/${name}`, value]);
      else walk(`${folder}/${name}`, value);
    }
  };
  walk(HOME, tree);
  return files.filter(([name]) => name.endsWith(".py"));
}
const { loadPyodide, version } = await import(pathToFileURL(path.join(spec.pyodide, "pyodide.mjs")).href);

// The memory as a restore finds it: once the WebAssembly is instantiated, when Pyodide calls its fsInit
// hook (where the page's loader waits for the snapshot), before any of its code has run. Pages of the
// snapshot that are the same there (the module's own data, which Python never changed) are left out of
// the file: the page copies them from its memory instead (tools/snapshot.py `pack`).
let memory = null;
for (const name of ["instantiate", "instantiateStreaming"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = async function (...args) {
    const result = await original.apply(this, args);
    const exported = result.instance && result.instance.exports.memory;
    if (exported instanceof WebAssembly.Memory && !memory) memory = exported;
    return result;
  };
}
let atFsInit = null;

const started = performance.now();
const pyodide = await loadPyodide({
  indexURL: spec.pyodide + path.sep,
  _makeSnapshot: true,
  fsInit: () => {
    if (memory) atFsInit = new Uint8Array(memory.buffer).slice();
  },
  stdout: (line) => console.log("[python] " + line),
  stderr: (line) => console.error("[python] " + line),
});
const bootMs = performance.now() - started;

for (const [target, source] of Object.entries(spec.files)) {
  pyodide.FS.mkdirTree(path.posix.dirname(target));
  pyodide.FS.writeFile(target, fs.readFileSync(source));
}
pyodide.runPython(spec.warm);
// What the snapshot holds, for the build's report and the tests.
const modules = pyodide.runPython("import sys; sorted(sys.modules)").toJs();
const stdlibZip = pyodide.runPython("import sys; [p for p in sys.path if p.endswith('.zip')][0]");
// Zero what the heap no longer uses before saving it: the allocator's free blocks still hold whatever they
// held, and the page downloads and inflates every byte that is not zero. Allocating zeroed blocks until
// the allocator would have to grow the heap (largest first, down to 8 bytes) fills its holes with zeros;
// freeing them leaves the allocator as a program that allocated and freed memory would (measured: the
// packed snapshot 6.42 -> 5.71 MB, its bytes that are not zero 16.3 -> 14.3 MB).
pyodide.runPython("import gc; gc.collect()");
const heap = pyodide._module;
if (typeof heap._calloc === "function" && typeof heap._free === "function" && typeof heap._sbrk === "function") {
  const top = () => heap._sbrk(0) >>> 0;
  const blocks = [];
  for (let size = 1 << 20; size >= 8; size >>= 1) {
    for (;;) {
      const before = top();
      const block = heap._calloc(1, size);
      if (!block) break;
      if (top() !== before) {
        heap._free(block); // from new memory, zero already: no hole of this size is left
        break;
      }
      blocks.push(block);
    }
  }
  for (const block of blocks) heap._free(block);
}
const bytes = pyodide.makeMemorySnapshot();
fs.writeFileSync(spec.out, bytes);
if (!atFsInit) throw new Error("the WebAssembly's memory was not seen at fsInit");
fs.writeFileSync(spec.initial, atFsInit);

// After the snapshot (so none of this is in its heap): byte-code for every module the page may import
// from source: ours that the snapshot does not hold already, and PyScript's own package, which PyScript
// writes into the file system and imports on every start. Checked-hash .pyc files: Python compares them with the source's hash, so a .pyc that
// does not match its source is never used.
const warm = new Set(modules);
const moduleName = (file) => path.posix.relative(HOME, file).replace(/(\/__init__)?\.py$/, "").replaceAll("/", ".");
const sources = Object.keys(spec.files).filter((file) => !warm.has(moduleName(file)));
if (spec.pyscript) {
  for (const [target, text] of pyscriptPackage(spec.pyscript)) {
    pyodide.FS.mkdirTree(path.posix.dirname(target));
    pyodide.FS.writeFile(target, text);
    sources.push(target);
  }
}
pyodide.globals.set("_sources", pyodide.toPy(sources));
const compiled = pyodide.runPython(`
import importlib.util, py_compile
_out = {}
for _source in _sources:
    _pyc = importlib.util.cache_from_source(_source)
    py_compile.compile(_source, cfile=_pyc, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    _out[_pyc] = _pyc
list(_out)
`).toJs();
for (const pyc of compiled) {
  const dest = path.join(spec.pycache, path.posix.relative(HOME, pyc));
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, pyodide.FS.readFile(pyc));
}
fs.writeFileSync(spec.report, JSON.stringify({
  pyodide_version: version,
  bytes: bytes.length,
  stdlib_zip: stdlibZip,
  heap_bytes: pyodide._module.HEAP8.length,
  boot_ms: Math.round(bootMs),
  modules,
}, null, 1));
console.log(`snapshot: ${bytes.length} bytes, ${modules.length} modules`);
process.exit(0);
