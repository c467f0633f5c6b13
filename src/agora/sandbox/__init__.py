"""The sandbox: stand-ins for the outside world that Agora serves itself, for the embedded demo
and for the tests. No domain imports it (import-linter); the app (``app.py``), the CLI and the
tests do.

- ``agents`` / ``host`` / ``protocol``: real MIP-003 agents (Echo, Reviewer, …) on an ASGI host;
- ``seller``: the paid demo agent, a Masumi seller on a payment node (docs/payments.md);
- ``payment_node``: a local Masumi payment node that speaks the real node's REST contract;
- ``demo``: the embedded demo's user, sign-in link and verified demo agents.
"""

from agora.sandbox.agents import DEMO_AGENTS, DEMO_CATEGORIES, MOUNT_PREFIX, demo_host

__all__ = ["DEMO_AGENTS", "DEMO_CATEGORIES", "MOUNT_PREFIX", "demo_host"]
