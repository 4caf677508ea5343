"""The store: the rows of games, seats and turns, the Core queries that read and write them, and
the per-process cache of table states. Services call it; nothing here knows a rule."""
