"""Three build-time changes to the vendored Pyodide's ``pyodide.asm.mjs``: its JS functions wrapped at once,
the main module's GOT entries made when first asked for, and its module factory compiled with the file.

    tools/build_site.py calls ``patch_runtime(site / "vendor" / "pyodide")`` after copying the runtime.

Why: at every start, Pyodide's Emscripten loader links the main module's function pointers to JS
functions (``reportUndefinedSymbols``: about 260 of them). A wasm table holds only wasm functions, so
each JS function is wrapped in a wasm module of its own (``convertJsFunctionToWasm``): 260 tiny
modules compiled and instantiated one by one on the page's main thread, each after a ``TypeError``
thrown and caught (measured in a trace of a return visit: 261 ``wasm.SyncCompile``, and 49 ms in
``addFunction``). The patch makes one module that imports all of them and exports each again, then
lets ``addFunction`` take its wrapper instead of trying the table first. The table slots are handed
out in the same order as before, so the heap (and the memory snapshot, which holds those slots) is
the same.

Why the second: after instantiating the main module, the loader gives every one of its exports (8,560)
an entry in the global offset table, a ``WebAssembly.Global`` each, for side modules that a package
might load later (``updateGOT``). The page loads none, and creating those objects is the largest part
of that step (about 30 ms of the main thread at every start). The patch still hands out every table
slot in the same order (``addFunction`` runs for the same functions at the same moment, so the heap
and the snapshot see the same slots), but keeps each value in a map until something asks the GOT for
that symbol (``GOTHandler``, when a module imports it), and ``updateGOT`` counts a waiting value as an
entry that exists, as it counted the made one.

Why the third: nearly the whole file (1.25 MB) is one function, the Emscripten factory
``_createPyodideModule``, declared as a plain function, which V8 compiles lazily: when the loader first
calls it, on the page's main thread, parsing the whole 1.25 MB again (a CPU profile of a return visit
put 143 ms of a slowed machine's main thread in its caller, ``instantiatePyodideModule``). Module scripts
get no compiled-code cache from the service worker's cache, so every visit paid it. The patch makes the
factory a parenthesized function expression, which V8 compiles eagerly with the file itself, on a
background thread while the file streams in. The same function, bound to the same name and exported
the same way. Measured, return visits alternated with the site before it (14 each, a slowed machine):
ready 1,688 -> 1,435 ms, faster in 13 of 14; cold loads 2,170 -> 2,109 ms (12 each, 7 of 12).

Safety: the patch replaces seven exact pieces of the file. If any is missing (another Pyodide
version), the file is left as it came, with a warning: the page works the same, only slower. The
patched file carries a marker comment, so the patch is never applied twice. Any failure while the
batch is built at run time leaves the wrappers to Pyodide's own code, one by one.
"""

from __future__ import annotations

import sys
from pathlib import Path

MARKER = "/* boneyard: JS functions wrapped in one module (tools/pyodide_patch.py) */"

ADD_FUNCTION = (
    "var ret=getEmptyTableSlot();try{setWasmTableEntry(ret,func)}catch(err){if(!(err instanceof TypeError))"
    "{throw err}var wrapped=convertJsFunctionToWasm(func,sig);setWasmTableEntry(ret,wrapped)}"
)
# The same, but a function wrapped in advance goes straight into its slot (no TypeError thrown first).
ADD_FUNCTION_PATCHED = ADD_FUNCTION.replace(
    "try{",
    "var early=boneyardWrapped&&boneyardWrapped.get(func);if(early){setWasmTableEntry(ret,early)}else try{",
    1,
)
REPORT = "var reportUndefinedSymbols=()=>{for(var[symName,entry]of Object.entries(GOT)){"
# Before the loop: every JS function it will put in the table (a ``sig`` of its own, not in the table
# yet), wrapped by one module; afterwards the map is dropped. A function that turns out not to need
# a wrapper just leaves its wrapper unused.
REPORT_PATCHED = (
    MARKER
    + "var boneyardWrapped=null;"
    + "var boneyardLeb=x=>{var out=[];do{var b=x&127;x>>>=7;if(x)b|=128;out.push(b)}while(x);return out};"
    + "var boneyardPut=(out,bytes)=>{for(var k=0;k<bytes.length;k++)out.push(bytes[k])};"
    + "var boneyardWrapAll=()=>{var list=[],seen=new Set;"
    + "for(var[symName,entry]of Object.entries(GOT)){if(entry.value==-1){"
    + "var value=resolveGlobalSymbol(symName,true).sym;"
    + 'if(typeof value=="function"&&typeof value.sig=="string"&&!seen.has(value)&&!getFunctionAddress(value))'
    + "{seen.add(value);list.push(value)}}}"
    + "if(list.length<2)return;"
    + "try{var types=[],index=new Map,imports=[],exports=[],funcs={};"
    + "for(var i=0;i<list.length;i++){var func=list[i],sig=func.sig,t=index.get(sig);"
    + "if(t===undefined){t=index.size;index.set(sig,t);types.push(96);"
    + 'boneyardPut(types,generateTypePack(sig.slice(1)));boneyardPut(types,generateTypePack(sig[0]==="v"?"":sig[0]))}'
    + 'var name="f"+i,named=[name.length];for(var c=0;c<name.length;c++)named.push(name.charCodeAt(c));'
    + "funcs[name]=func;imports.push(1,101);boneyardPut(imports,named);imports.push(0);"
    + "boneyardPut(imports,boneyardLeb(t));boneyardPut(exports,named);exports.push(0);boneyardPut(exports,boneyardLeb(i))}"
    + "var bytes=[0,97,115,109,1,0,0,0],section=(id,count,body)=>{var head=boneyardLeb(count);bytes.push(id);"
    + "boneyardPut(bytes,boneyardLeb(head.length+body.length));boneyardPut(bytes,head);boneyardPut(bytes,body)};"
    + "section(1,index.size,types);section(2,list.length,imports);section(7,list.length,exports);"
    + "var instance=new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(bytes)),{e:funcs});"
    + "boneyardWrapped=new Map;"
    + 'for(var i=0;i<list.length;i++)boneyardWrapped.set(list[i],instance.exports["f"+i])'
    + "}catch(error){boneyardWrapped=null}};"
    + "var reportUndefinedSymbols=()=>{boneyardWrapAll();try{boneyardReport()}finally{boneyardWrapped=null}};"
    + "var boneyardReport=()=>{for(var[symName,entry]of Object.entries(GOT)){"
)


# The main module's exports: each table slot handed out as before, each GOT value kept until asked for.
MAIN_GOT = "updateGOT(origExports);LDSO.init();"
MAIN_GOT_PATCHED = "boneyardMainGOT(origExports);LDSO.init();"
GOT_HANDLER = (
    "var GOTHandler={get(weakImports,symName){var rtn=GOT[symName];"
    'if(!rtn){rtn=GOT[symName]=new WebAssembly.Global({value:"i32",mutable:true},-1)}'
)
GOT_HANDLER_PATCHED = (
    "var boneyardWaiting=new Map;"
    "var boneyardMainGOT=exports=>{for(var symName in exports){if(isInternalSym(symName)){continue}"
    "var value=exports[symName];if(GOT[symName]&&GOT[symName].value!=-1){continue}var newValue;"
    'if(typeof value=="function"){newValue=addFunction(value)}else if(typeof value.value=="number"){newValue=value}'
    "else{continue}if(GOT[symName]){GOT[symName].value=newValue}else{boneyardWaiting.set(symName,newValue)}}};"
    "var GOTHandler={get(weakImports,symName){var rtn=GOT[symName];"
    'if(!rtn){rtn=GOT[symName]=new WebAssembly.Global({value:"i32",mutable:true},-1);'
    "if(boneyardWaiting.has(symName)){rtn.value=boneyardWaiting.get(symName);boneyardWaiting.delete(symName)}}"
)
EXISTING = "var existingEntry=GOT[symName]&&GOT[symName].value!=-1;"
EXISTING_PATCHED = "var existingEntry=GOT[symName]?GOT[symName].value!=-1:boneyardWaiting.has(symName);"
# The factory as a parenthesized function expression (V8 compiles such a function eagerly, with its
# script, off the main thread), under the same name and exported the same way.
FACTORY = "async function _createPyodideModule(moduleArg={}){"
FACTORY_PATCHED = "var _createPyodideModule=(async function _createPyodideModule(moduleArg={}){"
FACTORY_END = ";return moduleRtn}export default _createPyodideModule;"
FACTORY_END_PATCHED = ";return moduleRtn});export default _createPyodideModule;"
PIECES = (
    (FACTORY, FACTORY_PATCHED),
    (FACTORY_END, FACTORY_END_PATCHED),
    (ADD_FUNCTION, ADD_FUNCTION_PATCHED),
    (REPORT, REPORT_PATCHED),
    (MAIN_GOT, MAIN_GOT_PATCHED),
    (GOT_HANDLER, GOT_HANDLER_PATCHED),
    (EXISTING, EXISTING_PATCHED),
)


def patch_source(text: str) -> tuple[str, str]:
    """Return the patched text and what happened ("patched", "already patched" or why not)."""
    if MARKER in text:
        return text, "already patched"
    if any(text.count(original) != 1 for original, _ in PIECES):
        return text, "left as it came: this Pyodide's loader is not the one the patch knows"
    for original, patched in PIECES:
        text = text.replace(original, patched)
    return text, "patched"


def patch_runtime(folder: Path) -> str:
    """Patch ``folder/pyodide.asm.mjs`` in place; return what happened (a warning is printed if not patched)."""
    path = folder / "pyodide.asm.mjs"
    text, outcome = patch_source(path.read_text(encoding="utf-8"))
    if outcome == "patched":
        path.write_text(text, encoding="utf-8")
    elif outcome != "already patched":
        print(
            f"build_site: warning: pyodide.asm.mjs {outcome}; the page starts a little slower",
            file=sys.stderr,
        )
    return outcome
