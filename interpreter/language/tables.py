"""What a checked script leaves for the compiler (Tables, CardInfo), below every part of the checker that fills it."""

from __future__ import annotations

import attrs

from . import nodes as n
from .source import Span


@attrs.define
class CardInfo:
    name: str
    deck: str
    attrs: dict
    span: Span


@attrs.define
class Tables:
    """Everything the compiler needs to know about a checked script.

    Attributes:
        resolved: id(Name or Target node) -> (kind, detail) where kind is one of local,
            global, option, zone, zones, symbol, constant, define.
        types: id(expression node) -> static type.
        slots: id(declaring node) -> local slot (let, for, binder, quantifier, ...).
        frames: id(body owner) -> number of local slots it needs.
        recursive: name of a definition that may call itself -> the chain it does it through
            (`best -> pick -> best`); such definitions are called with a depth limit.
        coerced: id(expression node) -> True for a zone read as the list of its cards there,
            because a list is expected at that place (docs/language.md, "Zones and lists").
        records: record name -> RecordDecl; record_fields: record name -> ((field, type), ...)
            in declaration order, which is the order of a record value's tuple.
        replacements: id(declaration) -> replacing.Replacement, for each declaration of the
            game that a `replace` put in the place of an included one (docs/language.md §20).
        variations: the variant's finer changes (variation.Change): steps replaced, removed or
            added, phases put before or after another, cases added to a definition.
    """

    title: str = ""
    min_players: int = 2
    max_players: int = 2
    seat_names: tuple = ()  # `players 4 named N, E, S, W`: how people read and type the seats (P0.. otherwise)
    options: dict = attrs.Factory(dict)  # name -> OptionDecl
    zones: dict = attrs.Factory(dict)  # name -> ZoneDecl
    vars: dict = attrs.Factory(dict)  # name -> (VarDecl, type)
    defines: dict = attrs.Factory(dict)
    rules: dict = attrs.Factory(dict)
    procs: dict = attrs.Factory(dict)
    phases: dict = attrs.Factory(dict)  # in declaration order; the first starts the game
    events: dict = attrs.Factory(dict)
    reactions: dict = attrs.Factory(dict)  # event name -> [ReactionDecl]
    handlers: dict = attrs.Factory(dict)  # event name -> [HandlerDecl]
    decks: list = attrs.Factory(list)
    cards: list = attrs.Factory(list)  # CardInfo, in id order
    card_attrs: dict = attrs.Factory(dict)  # attribute -> type
    orders: dict = attrs.Factory(dict)  # attribute declared `ordered` -> its values, in order
    number_attributes: dict = attrs.Factory(dict)  # name -> AttributeDecl (`attribute points from rank`)
    symbols: set = attrs.Factory(set)
    score: n.ScoreDecl | None = None
    winners: n.WinnersDecl | None = None
    teams: n.TeamsDecl | None = None  # the partnerships, in a game with teams
    end_when: n.EndWhen | None = None  # `end game when CONDITION` (ending.py)
    symbol_sets: dict = attrs.Factory(dict)  # name -> SymbolsDecl (`symbols strain: C, D, H, S, NT`)
    option_sets: dict = attrs.Factory(dict)  # option name -> the symbols it chooses from (`option s: strain = NT`)
    heading: dict = attrs.Factory(dict)  # "game", "players" -> the declaration read (its first one)
    limits: dict = attrs.Factory(dict)  # budget name (work_per_move, work_per_game) -> the game's own value
    measures: dict = attrs.Factory(dict)  # name -> MeasureDecl (their own namespace)
    resolved: dict = attrs.Factory(dict)
    types: dict = attrs.Factory(dict)
    slots: dict = attrs.Factory(dict)
    frames: dict = attrs.Factory(dict)
    coerced: dict = attrs.Factory(dict)
    recursive: dict = attrs.Factory(dict)
    records: dict = attrs.Factory(dict)
    record_fields: dict = attrs.Factory(dict)
    replacements: dict = attrs.Factory(dict)
    variations: list = attrs.Factory(list)  # variation.Change: a variant's steps, inserted phases and cases
