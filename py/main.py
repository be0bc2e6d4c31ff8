"""Entry point of the page: build the app shell, then mark the page ready."""

from ui.app import start

start()
