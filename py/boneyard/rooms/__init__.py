"""Online rooms: the pure, transport-agnostic logic of playing with friends over the network.

``protocol`` (the wire messages, room codes, tokens, reactions), ``fairdeal`` (commit/reveal of every
participant's randomness and the after-game deal check), ``host`` (``HostRoom``: lobby, seats, moves,
views, chat, drops), ``guest`` (``GuestRoom``: what a guest knows), ``lobby`` (quick match: strangers
meeting through lobby ids at the broker) and ``rated`` (a rated table's chains and signatures). The browser layer (py/ui/online)
moves the texts these produce over WebRTC; nothing here touches a clock, a socket or the page.
"""

from __future__ import annotations
