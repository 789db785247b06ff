"""The big screen: ``app`` (window loop and :class:`~game.render.app.Screen`), the table's own
scenes (``lobby``, ``settings``), the ``kit`` every screen builds on, and ``games/<game>/``."""
