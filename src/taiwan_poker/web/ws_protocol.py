"""uvicorn's WebSocket protocol with a compression window the size of a table's view, compressed by ISA-L.

uvicorn compresses every message (permessage-deflate) with a 4 KiB window
(``server_max_window_bits=12``): a six-seat table's view is about 4.7 KB, so
each push no longer sees the one before it, and deflate then costs 61 µs a
message and sends 1,100 bytes. With an 8 KiB window (13 bits) consecutive
views compress against each other. The compressor is Intel's ISA-L
(``isal``, the deflate format and zlib's interface; aiohttp offers it as its
zlib too) at its fastest level: a six-seat view 4.4 µs and 620 bytes a
message against zlib's 21.7 µs and 144 (heads-up 3.4 µs and 462 bytes
against 26.8 and 147); ``benchmarks/bench_write_path.py --deflate``
measures both. Every push is compressed, so this is CPU on the server's
hottest path; a few hundred bytes more a push is nothing to a phone. The
price of the window is 16 KiB more of deflate state an open socket; the
client's window stays 4 KiB. A client that asks for
``server_no_context_takeover`` (browsers do not) gets websockets' own zlib
compressor, made anew for each message.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from isal import isal_zlib
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

SERVER_WINDOW_BITS = 13  # the server's deflate window: 8 KiB, more than a six-seat view
CLIENT_WINDOW_BITS = 12  # what the client may use towards the server (messages of a few hundred bytes)
MEM_LEVEL = 5  # uvicorn's: zlib's hash table, where zlib compresses (no context takeover)
ISAL_LEVEL = 0  # ISA-L's fastest (0-3; 3: 12.3 µs and 208 bytes a six-seat view)


def compressor(window_bits: int) -> Any:
    """The deflate compressor a socket keeps for its messages (raw deflate, ``window_bits`` of window)."""
    return isal_zlib.compressobj(ISAL_LEVEL, isal_zlib.DEFLATED, -window_bits)


class IsalDeflate(PerMessageDeflate):
    """permessage-deflate as websockets does it, with ISA-L's compressor when it keeps its context."""

    def __init__(self, remote_no_context_takeover: bool, local_no_context_takeover: bool,
                 remote_max_window_bits: int, local_max_window_bits: int,
                 compress_settings: dict[Any, Any] | None = None) -> None:
        super().__init__(remote_no_context_takeover, local_no_context_takeover, remote_max_window_bits,
                         local_max_window_bits, compress_settings)
        if not local_no_context_takeover:
            self.encoder = compressor(local_max_window_bits)


class RoomDeflateFactory(ServerPerMessageDeflateFactory):
    """The server's permessage-deflate offer, negotiated as websockets does, compressed by :class:`IsalDeflate`."""

    def process_request_params(self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
                               ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, IsalDeflate(agreed.remote_no_context_takeover, agreed.local_no_context_takeover,
                                     agreed.remote_max_window_bits, agreed.local_max_window_bits,
                                     agreed.compress_settings)


def deflate() -> ServerPerMessageDeflateFactory:
    """The permessage-deflate the server offers."""
    return RoomDeflateFactory(server_max_window_bits=SERVER_WINDOW_BITS, client_max_window_bits=CLIENT_WINDOW_BITS,
                              compress_settings={"memLevel": MEM_LEVEL})


class RoomWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol (``uvicorn.run(app, ws=...)``) with :func:`deflate`'s window."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:  # before the handshake: nothing has been read or negotiated yet
            self.conn = ServerProtocol(extensions=[deflate()], max_size=self.config.ws_max_size,
                                       logger=logging.getLogger("uvicorn.error"))
