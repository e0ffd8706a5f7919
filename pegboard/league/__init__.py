"""A league across clubs: each club's nights, as the signed files ``pegboard club
export`` writes (:mod:`pegboard.club.nightfile`), imported into PostgreSQL (one
transaction a night, the same night once, a corrected night beside the one it
corrects), and the season's standings across the clubs worked out from them.

It sits above the club: it reads night files with the club's own schema, rules and
standings code, never a club's live night (an import contract says so), and the club
never needs it (a hall plays its night offline and sends the file later).
"""
