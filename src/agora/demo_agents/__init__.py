"""Real MIP-003 agents served by Agora itself (for the embedded demo and for tests)."""
