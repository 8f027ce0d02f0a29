"""Limits of everything a game folder sets: coordinates, font sizes, counts, grids, tables.

Each is a reasoned maximum, well beyond what any printable piece needs (the largest board is
600×600 mm; the smallest legible print is about 4 pt), so a value past one is a typo or a
hostile file, and refusing it at load keeps a build from running for hours. Every one is
listed in docs/layout-vocabulary.md (generated from pnp.data.spec).
"""

from __future__ import annotations

MAX_COORD_MM = 1000.0  # a 600 mm board with bleed is the largest face; art may overhang it
MAX_COORD_PERCENT = 200.0  # of the trim; more than twice the piece is off it by a piece
MIN_FONT_PT = 2.0  # below ~4 pt print is unreadable; 2 pt leaves room for fine print
MAX_FONT_PT = 300.0  # ~106 mm tall glyphs: one character filling a large board
MAX_STROKE_MM = 20.0  # a border thicker than 2 cm is a filled shape, not a line
MAX_DASH_MM = 100.0
MAX_DASH_ITEMS = 16
MAX_POINTS = 1000  # a hand-drawn polyline; curves belong in symbols
MAX_TEXT_CHARS = 1000  # more than a poker card holds at the smallest legible size
# Texts by kind, each checked where its file is read, before anything is typeset: one printed
# text (card text, a note, a caption, a table cell, a credit) has MAX_TEXT_CHARS; a name or a
# title (of the game, a component, a table, a column; a glossary term) MAX_NAME_CHARS; a short
# fact printed on the cover and the aid's first line (minutes, age, version, date) MAX_FACT_CHARS.
MAX_NAME_CHARS = 100
MAX_FACT_CHARS = 40
# Any one YAML value, whatever it is for, at load: a symbol's path data is the longest shipped
# (some 400 characters). It keeps a 7 MB line away from every later stage, and a number
# written with more characters than any real one has away from PyYAML's constructors (a base-60
# count of a million digits takes minutes to build and cannot be printed back).
MAX_SCALAR_CHARS = 20_000
MAX_NUMBER_CHARS = 100
MAX_LABELS = 100  # boxes / grid labels on one face
MAX_ICONS = 500  # icons of one element: a 600 mm board of 5 mm icons holds fewer
MAX_GRID_ROWS = 200  # a 600 mm board of 3 mm rows
MAX_GRID_COLUMNS = 50
MAX_WEIGHT = 1000.0  # a relative column width; ratios beyond 1000:1 vanish at print
MAX_ICON_MM = 600.0
MIN_ICON_MM = 0.5  # smaller is a speck; it also bounds how many icons a box can hold
MAX_GAP_MM = 100.0

# Component-level limits, used by the loader.
MAX_COPIES = 1000  # copies of one card design; the largest shipped deck has 104 cards
MAX_PIECES = 10000  # printed pieces in one game: some 1,100 A4 sheets of mini cards
MAX_GENERATE = 1000  # cards one generate block may make
MAX_PLAYERS = 100  # no table seats more; an engine plays every seat
MAX_CREDITS = 50
MAX_TABLE_ROWS = 1000
MAX_TABLE_COLUMNS = 50
MAX_FIGURE_CARD_MM = 200.0  # a miniature taller than the text column of an A4 page
MAX_VIEWBOX = 1e6  # symbol geometry in viewbox units; keeps path arithmetic finite

# Pictures (pnp.data.imagefiles). A poker card's full bleed at 600 dpi is 1.6 megapixels and an
# A3 board's at 300 dpi 17.4; 50 megapixels (a 7,000 × 7,000 picture) leaves room for any
# print while refusing a decompression bomb from its header, before a pixel is decoded.
MAX_IMAGE_PIXELS = 50_000_000
MAX_IMAGE_BYTES = 64 * 1024 * 1024  # a file larger than this is refused before it is read
MAX_SVG_BYTES = 4 * 1024 * 1024
MAX_SVG_ELEMENTS = 20_000  # drawing elements of one SVG: flat art has hundreds
MAX_IMAGES = 2000  # distinct picture files one game uses

# Fonts (pnp.text.fontscan, pnp.text.fonts): a file larger than this is not read.
MAX_FONT_BYTES = 256 * 1024 * 1024

# Numbers a user types (pnp.core.numbers holds the 18-digit rule for all of them).
MAX_SEED = 10**18 - 1  # a game's seed, in game.yaml's example: and on the command line
