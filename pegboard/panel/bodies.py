"""Request bodies, read strictly: JSON the panel can hold, checked before it is parsed.

Every body a phone sends is small and flat (a few names, cards and numbers). The
panel reads every body with :func:`parse`, which refuses, as a 400 that names the
problem and before anything is changed:

- a body over ``MOST_BYTES`` (the server refuses larger ones before reading them);
- nesting deeper than ``DEEPEST`` (checked by a scan of the bytes, so a body nested
  5,000 deep never reaches the recursive parser);
- bytes that are not UTF-8, text with a lone surrogate (``"\\ud800"``: it could not be
  stored), NaN or an infinity, an integer of more than ``LONGEST_NUMBER`` digits, and a
  key given twice in one object.

>>> parse(b'{"pin": "1234"}')
{'pin': '1234'}
>>> parse(b"[" * 50 + b"]" * 50)
Traceback (most recent call last):
...
pegboard.panel.bodies.BodyError: the JSON is nested too deep (at most 8 levels)
>>> parse(b'{"name": "\\\\ud800"}')
Traceback (most recent call last):
...
pegboard.panel.bodies.BodyError: the JSON holds text that is not valid Unicode
"""

from __future__ import annotations

import json
import math
from typing import Any

from flask import abort, request
from flask_babel import gettext as _

from pegboard.errors import PegboardError
from pegboard.i18n import N_, Phrase

MOST_BYTES = 16 * 1024  # the largest body a phone sends is a new game's settings
DEEPEST = 8  # nesting: an object of lists is 2
LONGEST_NUMBER = 12  # digits; no count, seat or target comes near
KEY_LENGTH = 128  # the longest Idempotency-Key taken
OPEN, CLOSE, QUOTE, BACKSLASH = b"[{", b"]}", ord('"'), ord("\\")


class BodyError(PegboardError, ValueError):
    """A request body the panel will not read (a 400)."""


def parse(data: bytes | str) -> Any:
    """The JSON value of a request body, or BodyError saying what is wrong with it."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if len(raw) > MOST_BYTES:
        message = N_("the request is too large (at most {most} bytes)")
        raise BodyError(Phrase.of(message, most=MOST_BYTES))
    _check_depth(raw)
    try:
        text = raw.decode("utf-8")
        value = json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except BodyError:
        raise
    except ValueError:  # bad JSON, bad UTF-8, an integer too long for Python
        raise BodyError(Phrase(N_("the request is not valid JSON"))) from None
    _check_value(value)
    return value


def json_body() -> dict[str, Any]:
    """The request's JSON object, read with :func:`parse`, or 400."""
    data = parse(request.get_data(cache=True))
    if not isinstance(data, dict):
        abort(400, description=_("send a JSON object"))
    return data


def idempotency_key() -> str | None:
    """The request's ``Idempotency-Key`` (a structured-field string: quoted or not), or
    None; 400 when it is not a short printable token."""
    sent = request.headers.get("Idempotency-Key")
    if sent is None:
        return None
    key = sent[1:-1] if len(sent) >= 2 and sent[0] == sent[-1] == '"' else sent
    if not 0 < len(key) <= KEY_LENGTH or not all("!" <= c <= "~" for c in key):
        message = _("the Idempotency-Key must be 1 to {most} printable ASCII characters")
        abort(400, description=message.format(most=KEY_LENGTH))
    return key


def _check_depth(raw: bytes) -> None:
    """One pass over the bytes: brackets outside strings, counted."""
    depth, text, escaped = 0, False, False
    for byte in raw:
        if text:
            escaped, text = not escaped and byte == BACKSLASH, escaped or byte != QUOTE
        elif byte == QUOTE:
            text = True
        elif byte in OPEN:
            depth += 1
            if depth > DEEPEST:
                message = N_("the JSON is nested too deep (at most {most} levels)")
                raise BodyError(Phrase.of(message, most=DEEPEST))
        elif byte in CLOSE:
            depth -= 1


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise BodyError(Phrase.of(N_("the JSON gives {key} twice"), key=repr(key)))
            seen.add(key)
    return value


def _constant(name: str) -> Any:
    raise BodyError(Phrase.of(N_("the JSON holds {value}, which is not a number"), value=name))


def _check_value(value: Any) -> None:
    """Every text valid Unicode, every number finite and short (depth is bounded)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise BodyError(Phrase(N_("the JSON holds text that is not valid Unicode"))) from None
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if len(str(abs(value))) > LONGEST_NUMBER:
            message = N_("the JSON holds a number of more than {most} digits")
            raise BodyError(Phrase.of(message, most=LONGEST_NUMBER))
    elif isinstance(value, float):
        if not math.isfinite(value):
            _constant(repr(value))
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_value(key)
            _check_value(item)
    else:
        for item in value:
            _check_value(item)
