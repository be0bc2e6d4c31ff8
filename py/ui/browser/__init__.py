"""The page's port: the only modules that import ``js``, ``pyscript`` or ``pyodide`` (the DOM, storage,
timers, audio, canvas and the PeerJS bridge). Everything else in ``ui`` runs under plain CPython."""
