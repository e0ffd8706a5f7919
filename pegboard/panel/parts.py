"""What a Flask app of ours keeps beside Flask, reached typed.

Flask's own extensions (Flask-SQLAlchemy, Flask-Babel) are objects with ``init_app(app)``
that keep themselves in ``app.extensions``; here each such object's class is its key, so
the one who reads it gets its type back: ``GameList.of(app)``, not
``app.extensions["pegboard.games"]`` (an ``Any``).

>>> from flask import Flask
>>> class Kept(Extension):
...     pass
>>> app, kept = Flask(__name__), Kept()
>>> kept.init_app(app)
>>> Kept.of(app) is kept, Kept.find(Flask(__name__))
(True, None)
"""

from __future__ import annotations

from typing import TypeVar

from flask import Flask, current_app

E = TypeVar("E", bound="Extension")


class Extension:
    """An object an app keeps: :meth:`init_app` keeps it, :meth:`of` finds it."""

    def init_app(self, app: Flask) -> None:
        """Keep this in ``app`` (one of each class per app)."""
        app.extensions[_key(type(self))] = self

    @classmethod
    def find(cls: type[E], app: Flask | None = None) -> E | None:
        """The one ``app`` keeps (by default the app answering the request), or None."""
        found = (current_app if app is None else app).extensions.get(_key(cls))
        return found if isinstance(found, cls) else None

    @classmethod
    def of(cls: type[E], app: Flask | None = None) -> E:
        """The one ``app`` keeps (by default the app answering the request)."""
        found = cls.find(app)
        if found is None:
            raise LookupError(f"the app keeps no {cls.__qualname__}")
        return found


def _key(cls: type[Extension]) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"
