"""penang_lib: the rules engine of Penang Rummy (Si Rummy)."""

__version__ = "0.1.0"
