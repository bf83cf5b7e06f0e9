"""The rules engine: cards, melds, the rule book, moves and the `Deal` state machine, the
rule checks, the sentences that explain each event, records, matches and the bots.

It imports nothing from the layers above it (`penang_lib.data`, `penang_lib.cli`,
`penang_lib.site`) and nothing of Jupyter or pandas. Its fast internals are in `fast`.
The public names are re-exported by `penang_lib` itself.
"""
