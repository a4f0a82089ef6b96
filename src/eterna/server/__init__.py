"""The web table's server: FastAPI app, WebSocket protocol, storage and live tables.

`eterna.server.app.create_app()` builds the ASGI application; `eterna serve` runs it on uvicorn.
The protocol is docs/web-protocol.md; operating the server is docs/web.md. Nothing is imported
here, so storage and protocol can be used without loading FastAPI.
"""
