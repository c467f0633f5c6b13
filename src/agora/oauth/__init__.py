"""OAuth 2.1 authorization server for MCP clients and command-line tools (docs/accounts.md,
"Connecting a client by OAuth"; docs/mcp.md): metadata (RFC 8414, RFC 9728), dynamic client
registration (RFC 7591), authorization code + PKCE S256, rotating refresh tokens with reuse
detection, revocation (RFC 7009), device authorization (RFC 8628). Built on Authlib's RFC pieces
(PKCE, client metadata claims, errors, token generation); the HTTP and storage are ours."""
