"""The conformance suite runs over every catalog entry plus a test-only toy game (``toygame/``),
which plugs in with its own files and one descriptor."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
