"""The table session: seats, tokens, lobby, timers, bots, journal, modes — one writer on the
asyncio loop (see ``session.py``); ``snapshot.py`` holds the types the renderer reads, ``api.py``
the names the server, the kiosk and the tools import."""
