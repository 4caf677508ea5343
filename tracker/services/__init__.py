"""Services own the transactions and the rule checks; views and the JSON API call them.

Every function takes the signed-in account's id and never reaches another account's data:
a game, player or token of another account is `NotFound`, exactly like one that does not exist.
"""

from .errors import Conflict, InvalidInput, NotFound, ServiceError, Throttled

__all__ = ["Conflict", "InvalidInput", "NotFound", "ServiceError", "Throttled"]
