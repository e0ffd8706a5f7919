"""What the board's camera must and may override.

A back-end must implement ``_shoot`` (one photo, as the bytes of a JPEG, PNG or WebP
file) and may implement ``_close``. :meth:`Camera.shoot` takes one photo at a time and
turns whatever goes wrong into a CameraError that says it in one line; ``close()`` is
safe twice, and a closed camera takes no photo.
"""

from __future__ import annotations

import threading

from pegboard.errors import CameraError
from pegboard.i18n import N_, Phrase

FAILED = N_("the board's camera did not take the photo: {reason}")


class Camera:
    """One camera over the table. ``where`` says which, for a person (the doctor, the log)."""

    where = "camera"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = False

    def __repr__(self) -> str:
        state = " closed" if self._closed else ""
        return f"<{type(self).__name__} {self.where}{state}>"

    def __enter__(self) -> Camera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def shoot(self) -> bytes:
        """One photo of the table, as an image file's bytes."""
        with self._lock:
            if self._closed:
                raise CameraError(Phrase.of(FAILED, reason="closed"))
            try:
                return self._shoot()
            except CameraError:
                raise
            except Exception as exc:  # each camera library raises its own
                raise CameraError(Phrase.of(FAILED, reason=str(exc) or type(exc).__name__)) from exc

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._close()

    # --- the back-end's hooks ----------------------------------------------------------

    def _shoot(self) -> bytes:
        raise NotImplementedError

    def _close(self) -> None:
        """Release the camera (by default there is nothing to release)."""
