"""The room socket's compression: an 8 KiB deflate window, so a six-seat view compresses against the one before.

``web/ws_protocol.py`` says why (a six-seat view is about 4.7 KB, over uvicorn's 4 KiB window).
"""

from __future__ import annotations

from websockets.sync.client import connect

from taiwan_poker.web.ws_protocol import SERVER_WINDOW_BITS


def test_the_server_offers_an_8_kib_compression_window(server: str) -> None:
    """A real ``taiwan-poker serve`` negotiates permessage-deflate with ``server_max_window_bits=13``."""
    url = server.replace("http://", "ws://") + "/ws/rooms/NOSUCH"
    with connect(url, compression="deflate") as ws:  # sync: browser tests keep an event loop in this thread
        assert ws.response is not None
        offered = str(ws.response.headers.get("Sec-WebSocket-Extensions", ""))
    assert SERVER_WINDOW_BITS == 13
    assert "permessage-deflate" in offered and "server_max_window_bits=13" in offered, offered
