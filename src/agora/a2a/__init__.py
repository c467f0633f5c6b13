"""The Agent2Agent (A2A) protocol, the client side: reading an Agent Card, sending a job to an
A2A agent as a task and following it, through the official ``a2a-sdk`` client over the outbound
guard (docs/a2a.md)."""
