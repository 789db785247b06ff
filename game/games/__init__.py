"""The games, one package each (``game/games/<id>/``): rules engine(s) with the companion variant,
bots, screen, how-to-play slides, phone modules (``phone/``), strings (``strings/``), views page and
rulebook. Each package's ``DESCRIPTORS`` are named by one entry point in the ``tabletop.games``
group (pyproject), which is how the catalog finds them; nothing outside a game's package names it.
A game in a distribution of its own is found the same way."""
