"""uvicorn's WebSocket protocol with a compression window the size of a table's view.

uvicorn compresses every message (permessage-deflate) with a 4 KiB window
(``server_max_window_bits=12``): a six-seat table's view is about 4.7 KB, so
each push no longer sees the one before it, and deflate then costs 61 µs a
message and sends 1,100 bytes. With an 8 KiB window (13 bits) consecutive
views compress against each other: 23 µs and 144 bytes (heads-up views, 2.8
KB, 19 µs and 173 → 149 bytes); ``benchmarks/bench_write_path.py --deflate``
measures it. The price is 16 KiB more of deflate state an open socket (48
instead of 32 KiB); the client's window stays 4 KiB.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

SERVER_WINDOW_BITS = 13  # the server's deflate window: 8 KiB, more than a six-seat view
CLIENT_WINDOW_BITS = 12  # what the client may use towards the server (messages of a few hundred bytes)
MEM_LEVEL = 5  # uvicorn's: the deflate state's hash table


def deflate() -> ServerPerMessageDeflateFactory:
    """The permessage-deflate the server offers."""
    return ServerPerMessageDeflateFactory(server_max_window_bits=SERVER_WINDOW_BITS,
                                          client_max_window_bits=CLIENT_WINDOW_BITS,
                                          compress_settings={"memLevel": MEM_LEVEL})


class RoomWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol (``uvicorn.run(app, ws=...)``) with :func:`deflate`'s window."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:  # before the handshake: nothing has been read or negotiated yet
            self.conn = ServerProtocol(extensions=[deflate()], max_size=self.config.ws_max_size,
                                       logger=logging.getLogger("uvicorn.error"))
