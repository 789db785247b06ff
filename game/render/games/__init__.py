"""One package per game's screen (``model``, ``table``, ``beats``, ``final``), each exporting
``choose_base(snapshot)`` and ``beats_for(snapshot, previous)``. A game's package imports the kit,
its own rules' enums and nothing of another game."""
