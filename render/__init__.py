"""Card images: pure functions from engine values to PNG bytes (no Discord here)."""
