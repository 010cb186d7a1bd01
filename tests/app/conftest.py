"""AppTest runs pages in this process: make the repo root (``ui``, ``dpcore``) importable."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
