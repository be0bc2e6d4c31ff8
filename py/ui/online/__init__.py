"""Online rooms in the app: the transport's Python side (``net``), the host's room next to its game
(``host``), the room, lobby and join screens (``screens``), and a guest's table from views (``remote``,
``chat``).

Nothing here loads until a player opens or joins a room: the page contacts no broker before that.
"""

from __future__ import annotations
