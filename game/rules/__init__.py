"""The engine contract every game's rules are written against (:mod:`game.rules.base`), the seeded
RNG kept inside states (:mod:`game.rules.rng`), the settings schema, the race-judging rule and the
companion games' score pad. The games' engines live in their own packages (``game/games/<id>/``);
which games exist is the catalog's business (:func:`game.catalog.get_engine`)."""
