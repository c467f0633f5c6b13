"""Real MIP-003 agents served by Agora itself (for the embedded demo and for tests)."""

from agora.demo_agents.agents import DEMO_AGENTS, DEMO_CATEGORIES, MOUNT_PREFIX, demo_host

__all__ = ["DEMO_AGENTS", "DEMO_CATEGORIES", "MOUNT_PREFIX", "demo_host"]
