"""Play together: tables where people, each in their own browser, play one match (issue 32).

- `codes`: table codes (short, no look-alike characters) and seat tokens (secrets).
- `table`: `Table`, the authority of one table: seats, the match, every move through the
  engine, and what each seat may see (`Table.state`).

Only the engine is below this package; the site's service and the widgets build on it.
The protocol spoken between the service and its clients is described in docs/TABLES.md.
"""

from penang_lib.tables.codes import new_code, new_token, read_code
from penang_lib.tables.table import Seat, Table, TableError, read_name

__all__ = ["Seat", "Table", "TableError", "new_code", "new_token", "read_code", "read_name"]
