"""The room socket's compression: an 8 KiB deflate window, so a six-seat view compresses against the one before,
compressed by ISA-L (``web/ws_protocol.py`` says why: a six-seat view is about 4.7 KB, over uvicorn's 4 KiB window,
and zlib's compressor cost a fifth of a push).
"""

from __future__ import annotations

import os

from isal import isal_zlib
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from taiwan_poker.web.ws_protocol import SERVER_WINDOW_BITS, IsalDeflate, deflate


def test_the_server_offers_an_8_kib_compression_window(server: str) -> None:
    """A real ``taiwan-poker serve`` negotiates permessage-deflate with ``server_max_window_bits=13``."""
    url = server.replace("http://", "ws://") + "/ws/rooms/NOSUCH"
    with connect(url, compression="deflate") as ws:  # sync: browser tests keep an event loop in this thread
        assert ws.response is not None
        offered = str(ws.response.headers.get("Sec-WebSocket-Extensions", ""))
        error = ws.recv(timeout=10)
    assert SERVER_WINDOW_BITS == 13
    assert "permessage-deflate" in offered and "server_max_window_bits=13" in offered, offered
    assert '"room_not_found"' in str(error)  # a compressed message the client's zlib reads


BROWSER_OFFER = "permessage-deflate; client_max_window_bits"


def negotiated(offer: str = BROWSER_OFFER) -> tuple[PerMessageDeflate, PerMessageDeflate]:
    """The server's and a browser-like client's extensions, as the handshake agrees them."""
    client_factory = ClientPerMessageDeflateFactory(client_max_window_bits=True)
    params = [(name.strip(), None) for name in offer.split(";")[1:]]
    response, server = deflate().process_request_params(params, [])  # the offer the server makes
    client = client_factory.process_response_params(response, [])
    return server, client


def test_a_browser_like_offer_gets_isal_compression_with_context_kept() -> None:
    server, _ = negotiated()
    assert isinstance(server, IsalDeflate)
    assert not server.local_no_context_takeover and server.local_max_window_bits == SERVER_WINDOW_BITS
    assert type(server.encoder).__module__ == type(isal_zlib.compressobj()).__module__ == "isal_zlib"


def test_zlib_reads_what_isal_wrote_and_nothing_reaches_past_the_window() -> None:
    """Three messages A, B, A of 6,000 random bytes each: the third could only be shortened by a match 12,000 bytes
    back, past the 8 KiB window the server announced; the client's zlib (its window the announced 13 bits) reads
    all three back. A consecutive repeat compresses against the message before (the context is kept)."""
    server, client = negotiated()
    a, b = os.urandom(6000), os.urandom(6000)
    sent = [server.encode(Frame(Opcode.TEXT, m)) for m in (a, b, a, a)]
    assert all(frame.rsv1 for frame in sent)
    assert [client.decode(frame).data for frame in sent] == [a, b, a, a]
    assert len(sent[3].data) < 500 < len(sent[2].data)  # the repeat right after matched; the far one could not


def test_a_client_that_refuses_the_servers_context_still_reads_every_message() -> None:
    """``server_no_context_takeover`` (browsers never ask it): websockets' zlib compressor, anew each message."""
    server, client = negotiated("permessage-deflate; server_no_context_takeover; client_max_window_bits")
    assert server.local_no_context_takeover
    text = b'{"type":"state","state":{"players":[]}}' * 50
    assert [client.decode(server.encode(Frame(Opcode.TEXT, text))).data for _ in range(3)] == [text] * 3
