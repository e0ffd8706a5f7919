"""A Raspberry Pi Camera Module through ``picamera2``: Raspberry Pi OS's
``python3-picamera2`` (not on PyPI; a virtual environment made with
``--system-site-packages`` sees it), imported when the camera is opened.

A missing module or no camera connected is a CameraError in one line; the board runs on
without a camera.
"""

from __future__ import annotations

import io
from typing import Any

from pegboard.camera.base import Camera
from pegboard.errors import CameraError
from pegboard.i18n import N_, Phrase

SIZE = (1600, 1200)  # pixels: the card reader needs no more (as the phone scales to 1600)


class PiCamera(Camera):
    """The camera module, started for still photos at :data:`SIZE`."""

    where = "Raspberry Pi camera"

    def __init__(self) -> None:
        super().__init__()
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            no_module = N_(
                "no camera: picamera2 is not installed ({command}, in a virtual environment "
                "made with {option}): {reason}"
            )
            raise CameraError(
                Phrase.of(
                    no_module,
                    command="sudo apt install python3-picamera2",
                    option="--system-site-packages",
                    reason=str(exc),
                )
            ) from None
        self._camera: Any = None
        try:
            self._camera = Picamera2()
            self._camera.configure(self._camera.create_still_configuration(main={"size": SIZE}))
            self._camera.start()
        except Exception as exc:  # picamera2 and libcamera raise their own (none: IndexError)
            self._close()
            no_camera = N_(
                "no camera found (is its ribbon cable in, and the Pi rebooted?): {reason}"
            )
            raise CameraError(Phrase.of(no_camera, reason=str(exc) or type(exc).__name__)) from None

    def _shoot(self) -> bytes:
        out = io.BytesIO()
        self._camera.capture_file(out, format="jpeg")
        return out.getvalue()

    def _close(self) -> None:
        if self._camera is not None:
            camera, self._camera = self._camera, None
            camera.close()
