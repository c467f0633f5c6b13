"""The MIP-003 conformance suite a builder runs before submitting (``agora agent check``, the
pytest plugin): named checks against a live agent, on Agora's own MIP-003 client, with the
input-schema rules of Agora's hire forms and Agora's MIP-004 hashes (docs/developer.md)."""
