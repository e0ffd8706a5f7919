"""One line of the doctor's report: a part, PASS, FAIL or SKIP, and what was found.

>>> print(Result("link", PASS, "synced").line())
PASS  link: synced
"""

from __future__ import annotations

from dataclasses import dataclass

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"


@dataclass(frozen=True)
class Result:
    """One line of the report."""

    name: str
    status: str
    detail: str

    def line(self) -> str:
        return f"{self.status}  {self.name}: {self.detail}"
