"""Credit accounts (one per workspace) and the append-only ledger."""
