"""The board's own camera over the table (optional): a photo of a show, taken when a count is
due and the advance button is held, or when a phone asks (``POST /api/camera``).

- ``base``: what a camera must and may override (:class:`~pegboard.camera.base.Camera`).
- ``pi``: a Raspberry Pi Camera Module through ``picamera2`` (Raspberry Pi OS's
  ``python3-picamera2``: not on PyPI), imported when the camera is opened, never before.
- ``folder``: the simulated camera, each shot the next photo of a folder (``--sim``).
- ``held``: the advance button's long press while a count of the show is due.

``[camera]`` in the config: ``enabled`` (off by default), ``folder`` (the simulated
camera's photos). Importing this package touches no camera.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pegboard.camera.base import Camera
from pegboard.camera.folder import FolderCamera
from pegboard.camera.held import Shots
from pegboard.errors import CameraError
from pegboard.i18n import N_, Phrase

__all__ = ["Camera", "CameraError", "FolderCamera", "Shots", "open_camera"]


def open_camera(section: dict[str, Any], *, sim: bool) -> Camera | None:
    """The camera ``[camera]`` asks for (None when it is off): on a simulated board the
    photos of its ``folder``, else the Pi's camera module. CameraError (one line) when it
    cannot be opened."""
    if not section["enabled"]:
        return None
    if sim:
        if not section["folder"]:
            no_folder = N_(
                "the simulated camera reads photos from a folder: set {key} in the config"
            )
            raise CameraError(Phrase.of(no_folder, key="[camera] folder"))
        return FolderCamera(Path(section["folder"]).expanduser())
    from pegboard.camera.pi import PiCamera

    return PiCamera()
