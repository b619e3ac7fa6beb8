"""rummy-bot: Indian 13-card Rummy tables for Discord communities."""
