"""Kiosk mode for game cafés: operator config, supervision (systemd), the lock, bounded disk,
the owner's page, the attract loop and the hand-over between groups."""
