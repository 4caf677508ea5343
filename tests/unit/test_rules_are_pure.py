"""The rules are pure Python: importing them loads neither Flask nor a database driver."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_rules_loads_no_framework():
    probe = (
        "import sys, tracker.rules\n"
        "loaded = sorted(m for m in ('flask', 'sqlalchemy', 'werkzeug', 'playwright') "
        "if m in sys.modules)\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )

    assert result.stdout.strip() == ""
