"""Being hired over A2A (docs/a2a.md, "Being hired over A2A"): an Agent Card for every listed
agent and an A2A JSON-RPC endpoint, answered by ``a2a-sdk``'s server (its JSON-RPC dispatcher over
a ``RequestHandler`` of ours), whose tasks are Agora jobs of the OAuth-signed-in person, made and
moved by the same use cases as REST, the web and MCP. A door: it sits above ``jobs``."""
