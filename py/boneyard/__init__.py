"""Boneyard's engine: pure Python rules, computer players and saves for every game.

Nothing under this package imports the browser (``js``, ``pyscript``, ``pyodide``); a test enforces it.
"""
