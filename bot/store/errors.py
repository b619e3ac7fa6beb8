"""Store failures a caller can act on; anything else from SQLite is a bug or a broken disk."""


class StoreError(Exception):
    """The database cannot be used as it is (for example, it is newer than this code)."""


class CorruptMatchError(StoreError):
    """A match's snapshot disagrees with its command log, so resuming it could change history."""


class ChannelBusyError(StoreError):
    """The channel already has an open or playing table."""


class DuplicateCommandError(StoreError):
    """A command id that the match's log already holds: saving it again would apply it twice."""
