"""How uvicorn serves the app: the one place `eterna serve` and the tests build its config.

- **Proxies.** `X-Forwarded-For` is believed only from the addresses of `--forwarded-allow-ips`
  (default: none, so every client is its socket's address and cannot forge another).
- **Logs.** Seat tokens never reach a log: a filter on uvicorn's loggers rewrites the value of
  every query parameter whose name, once percent-decoded as the server decodes it, is `token`
  (`token=`, `%74oken=`, `tok%65n=` alike) to `[redacted]`.
- **Slow clients.** A connection that has not sent a whole request line and headers within
  `HEADER_TIMEOUT` seconds (of connecting, or of its previous response) is closed; idle
  keep-alive connections close after `KEEP_ALIVE` seconds; request headers are at most
  `MAX_HEADERS` bytes.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any
from urllib.parse import unquote_plus

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

WS_MAX_SIZE = 64 * 1024  # bytes: uvicorn drops bigger WebSocket frames (the protocol's are 4 KiB)
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 10.0  # seconds a request body may take to arrive (app.py's BodyLimit)
KEEP_ALIVE = 5.0
MAX_HEADERS = 16 * 1024
# a query parameter: its name (anything up to `=`), its value (up to the next separator)
QUERY_PARAMETER = re.compile(r"([?&;\s\"']|^)([^=&;?\s\"']+)=([^&;\s\"']*)")
REDACTED = "[redacted]"


def _redact_parameter(match: re.Match[str]) -> str:
    lead, name, _value = match.groups()
    if unquote_plus(name).strip().lower() != "token":
        return match.group(0)
    return f"{lead}{name}={REDACTED}"


def redact(text: str) -> str:
    """`text` with the value of every `token` query parameter replaced, its name decoded as a
    query string is (so `%74oken=` counts)."""
    return QUERY_PARAMETER.sub(_redact_parameter, text) if "=" in text else text


class RedactTokens(logging.Filter):
    """Redact tokens (`redact`) in a log record's message and arguments (access and WebSocket
    lines carry the request's URL, query string included)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        args = record.args
        if isinstance(args, tuple) and any(isinstance(a, str) and "=" in a for a in args):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        return True


LOGGERS_WITH_URLS = ("uvicorn.access", "uvicorn.error", "uvicorn")


def redact_tokens_in_logs() -> None:
    """Install `RedactTokens` on uvicorn's loggers (after uvicorn configured logging)."""
    for name in LOGGERS_WITH_URLS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol, closing connections whose request headers arrive too slowly."""

    header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
        self.header_timer = self.loop.call_later(HEADER_TIMEOUT, self._too_slow)

    def _too_slow(self) -> None:
        self.header_timer = None
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:  # upgraded: a socket
            return
        if self.conn.their_state is h11.IDLE:  # still no whole request line and headers
            transport.close()


def uvicorn_config(
    app: Any,
    host: str,
    port: int,
    log_level: str = "info",
    forwarded_allow_ips: str | None = None,
    **extra: Any,
) -> uvicorn.Config:
    """The uvicorn config of the web table (also the tests'); call `redact_tokens_in_logs()`
    after making it (uvicorn configures logging when its config is made)."""
    trusted = (forwarded_allow_ips or "").strip()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or "",
        timeout_keep_alive=int(KEEP_ALIVE),
        h11_max_incomplete_event_size=MAX_HEADERS,
        http=GuardedH11,
        server_header=False,
        **extra,
    )
    redact_tokens_in_logs()
    return config


__all__ = ["GuardedH11", "RedactTokens", "redact_tokens_in_logs", "uvicorn_config"]
