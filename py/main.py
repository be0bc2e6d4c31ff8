"""Entry point of the page: build the app shell, then mark the page ready."""

from pyscript import window

window.performance.mark("boneyard:main")  # PyScript is set up: the start-up benchmark's phases split here

from ui.app import start  # noqa: E402 - after the mark, so the first render is measured whole

start()
