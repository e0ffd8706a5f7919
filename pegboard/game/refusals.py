"""What the game file's refusals say: why a file cannot be used, and what to do about it
(the store says them, one line each, in the maker's language)."""

from __future__ import annotations

from pegboard.i18n import N_, Phrase

# Translators: the game file could not be used; {path} is the file, {error} what the
# system or SQLite said.
CANNOT_OPEN = N_("cannot open the game file {path}: {error}")
CANNOT_READ = N_("cannot read the game file {path}: {error}")
CANNOT_WRITE = N_("cannot write the game file {path}: {error}")
NO_SUCH_GAME = N_("there is no game {game} in {path}")


REFUSED = N_("the game file {path} cannot be used: {problem}. Nothing was changed: {remedy}.")
MOVE_ASIDE = N_(
    "put back a copy, or move {files} into another folder to start a new game file (keep the "
    "files you move)"
)
NOT_OURS_OR_DAMAGED = N_("it is damaged or not a game file ({error})")
DAMAGED = N_("it is damaged ({details})")
DAMAGED_MORE = N_("it is damaged ({details}; {count} problems in all)")  # count >= 2
NOT_OURS = N_("it is not a pegboard game file")
NEWER = N_(
    "it was written by a newer pegboard (file format {version}; this one reads up to {schema})"
)
RUN_NEWER = N_("run the pegboard that wrote it, or a newer one")
UNREADABLE = N_("event {version} of game {game} cannot be read ({error})")


def damage(check: list[str]) -> Phrase:
    """SQLite's check output as one line: its first problem, and how many more."""
    lines = [" ".join(line.split()) for row in check for line in str(row).splitlines()]
    problems = [line for line in lines if line and not line.startswith("***")]
    first = problems[0] if problems else "?"
    if len(problems) > 1:
        return Phrase.of(DAMAGED_MORE, details=first, count=len(problems))
    return Phrase.of(DAMAGED, details=first)
