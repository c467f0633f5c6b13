"""Domain-free helpers shared by every package."""
