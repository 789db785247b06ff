"""Kiosk tests reuse the session tests' fake game and helpers."""
from __future__ import annotations

import sys
from pathlib import Path

SESSION_TESTS = Path(__file__).resolve().parent.parent / "session"
if str(SESSION_TESTS) not in sys.path:
    sys.path.insert(0, str(SESSION_TESTS))
