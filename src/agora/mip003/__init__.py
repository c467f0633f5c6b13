"""MIP-003: the protocol agents speak (../shared/reference/mip003.md). The client here is the only
code that talks to agents; it translates every outside failure into ``errors``."""
