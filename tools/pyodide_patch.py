"""One build-time change to the vendored Pyodide's ``pyodide.asm.mjs``: its JS functions wrapped at once.

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

Safety: the patch replaces two exact pieces of the file. If either is missing (another Pyodide
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


def patch_source(text: str) -> tuple[str, str]:
    """Return the patched text and what happened ("patched", "already patched" or why not)."""
    if MARKER in text:
        return text, "already patched"
    if text.count(ADD_FUNCTION) != 1 or text.count(REPORT) != 1:
        return text, "left as it came: this Pyodide's loader is not the one the patch knows"
    return text.replace(ADD_FUNCTION, ADD_FUNCTION_PATCHED).replace(REPORT, REPORT_PATCHED), "patched"


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
