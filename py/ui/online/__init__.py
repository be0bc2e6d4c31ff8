"""Online rooms in the app: what a room needs from outside (``net``: the transport, the page and the app
as protocols), the host's room next to its game (``host``), the room, lobby and join screens
(``screens``), and a guest's table from views (``remote``, ``chat``). All of it is pure Python: the
browser's side (js/online.js, the clipboard, timers) is ``ui.browser.peer``, given to a room as its port.

Nothing here loads until a player opens or joins a room: the page contacts no broker before that.
"""

from __future__ import annotations
