"""The table's server: aiohttp app (HTTP routes, the WebSocket protocol of ``docs/protocol.md``),
the hub of sockets, and the runtime that runs session + server on an asyncio loop."""
