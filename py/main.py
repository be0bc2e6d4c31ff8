"""Entry point of the page: build the app shell over the page's port, then mark the page ready."""

from pyscript import window

window.performance.mark("boneyard:main")  # PyScript is set up: the start-up benchmark's phases split here

from ui.browser.dom import start  # noqa: E402 - after the mark, so the first render is measured whole

start()
