"""A terminal front end: the same engine and computer players as Discord, in a shell."""
