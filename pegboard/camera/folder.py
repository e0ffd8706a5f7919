"""The simulated camera: each shot is the next photo of a folder, in name order, wrapping
round (``--sim`` with ``[camera] folder``): the first named after the one taken last, else
the first. The folder is listed again at each shot, so a photo put in it is taken in its
turn; a folder left empty is a failed shot, one line."""

from __future__ import annotations

from pathlib import Path

from pegboard.camera.base import Camera
from pegboard.errors import CameraError
from pegboard.i18n import N_, Phrase

SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")  # what the card reader reads

NO_PHOTOS = N_("no photos in the camera's folder {folder} (JPEG, PNG or WebP files)")


class FolderCamera(Camera):
    """The photos in ``folder``, one a shot. CameraError if it is no folder or holds none."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.where = str(folder)
        self._last: str | None = None  # the name of the photo taken last
        if not folder.is_dir():
            no_folder = N_("the camera's folder {folder} is no folder")
            raise CameraError(Phrase.of(no_folder, folder=str(folder)))
        self.photos()  # refused now, when it holds none

    def photos(self) -> list[Path]:
        """The folder's photos in the order they are taken."""
        try:
            found = sorted(
                path
                for path in self.folder.iterdir()
                if path.suffix.lower() in SUFFIXES and path.is_file()
            )
        except OSError as error:
            cannot = N_("cannot read the camera's folder {folder}: {reason}")
            reason = error.strerror or str(error)
            raise CameraError(Phrase.of(cannot, folder=str(self.folder), reason=reason)) from None
        if not found:
            raise CameraError(Phrase.of(NO_PHOTOS, folder=str(self.folder)))
        return found

    def _shoot(self) -> bytes:
        photos = self.photos()
        after = [path for path in photos if self._last is None or path.name > self._last]
        path = (after or photos)[0]
        self._last = path.name
        return path.read_bytes()
