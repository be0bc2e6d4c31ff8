// Make Boneyard's Pyodide memory snapshot with Node and the vendored runtime.
//
//     node tools/snapshot.mjs SPEC.json
//
// tools/snapshot.py (called by tools/build_site.py) writes SPEC and caches the result; run this by hand
// only to debug. SPEC is JSON:
//   {"pyodide": "/abs/dir/with/pyodide.mjs", "files": {"/home/pyodide/boneyard/core.py": "/abs/src", ...},
//    "warm": "python code that imports what should be warm", "out": "/abs/out.bin", "report": "/abs/out.json"}
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
const { loadPyodide, version } = await import(pathToFileURL(path.join(spec.pyodide, "pyodide.mjs")).href);

const started = performance.now();
const pyodide = await loadPyodide({
  indexURL: spec.pyodide + path.sep,
  _makeSnapshot: true,
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
const bytes = pyodide.makeMemorySnapshot();
fs.writeFileSync(spec.out, bytes);
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
