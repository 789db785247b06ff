"""The render kit every screen builds on: the scene stack (``scene``), text in three scripts
(``text``), colours and drawing (``theme``, ``shapes``), QR codes, sound effects with game-neutral
names, buttons (``widgets``), motion, the oval table and its cached layers (``table``), seat plates
(``plates``, ``seats``), the caption/timer/badge overlay (``hud``) and the one final scene
(``final``). The kit imports no game."""
