"""Partnerships: which team each seat plays in (docs/language.md, "Teams").

A game's teams are fixed for the whole game: by seat in the script (`teams: [0, 2], [1, 3]`),
or computed once at set-up from the player count and the options (`teams p: number(p) % 2`).
They are plain data derived from those, so a state never saves them: a restored state computes
them again.  Teams are numbered from 0 in the order the script gives them (or by their
computed numbers) and shown T0, T1, ...
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Teams:
    """The partnership layout of one game.

    Attributes:
        of: the team number of each seat.
        members: the seats of each team, in seat order.
    """

    of: tuple
    members: tuple

    @property
    def count(self) -> int:
        return len(self.members)

    def partners(self, seat: int) -> tuple:
        """The other seats of `seat`'s team, clockwise from it (the next partner first)."""
        n = len(self.of)
        team = self.of[seat]
        return tuple(s for s in ((seat + i) % n for i in range(1, n)) if self.of[s] == team)


def fixed(seats: tuple) -> Teams:
    """The layout a script writes by seat: ((0, 2), (1, 3)); the checker made it whole."""
    of = [0] * sum(len(team) for team in seats)
    for number, team in enumerate(seats):
        for seat in team:
            of[seat] = number
    return Teams(tuple(of), tuple(tuple(sorted(team)) for team in seats))


def numbered(numbers: list) -> Teams | str:
    """The layout from each seat's computed team number, or what is wrong with the numbers
    (every seat needs a number from 0 up, every number up to the highest needs a seat, and
    there are at least two teams)."""
    for seat, number in enumerate(numbers):
        if type(number) is not int or number < 0:
            shown = "none" if number is None else number
            return f"seat {seat} gets team number {shown}; a team number is a whole number from 0 up"
    count = max(numbers) + 1 if numbers else 0
    if count > len(numbers):  # more team numbers than seats: some number has no seat
        seat = next(s for s, x in enumerate(numbers) if x >= len(numbers))
        return f"seat {seat} gets team number {numbers[seat]}, but there are only {len(numbers)} seats " \
               "to fill teams 0, 1, ... without gaps"
    members = [tuple(s for s, x in enumerate(numbers) if x == team) for team in range(count)]
    empty = [team for team, seats in enumerate(members) if not seats]
    if empty:
        return f"no seat is in team {empty[0]}, though seats are in team {count - 1}; number the teams 0, 1, ... without gaps"
    if count < 2:
        return "every seat is in one team; a game with teams needs at least two"
    return Teams(tuple(numbers), tuple(members))

