"""ipywidgets views of penang_lib; no rule logic here."""

__all__: list[str] = []
