"""The process around the bot: its settings, start-up and workers, metrics, moving a database."""
