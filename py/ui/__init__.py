"""Boneyard's browser layer: the only code that imports js, pyscript or pyodide."""
