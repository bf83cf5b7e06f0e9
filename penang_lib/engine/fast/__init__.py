"""The engine's fast internals: the same questions as `penang_lib.engine.analysis` (which melds
a hand can make, what each table meld takes), answered on bit masks and counts without building
every `Meld`. Each loop here names the slow twin it must agree with; tests/engine/fast checks
that they agree. They use only the engine's value types (cards, melds, rules).
"""
