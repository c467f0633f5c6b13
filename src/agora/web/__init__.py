"""The web app: server-rendered pages (Jinja2) for people, calling the same services as the REST
endpoints (never the HTTP API), signed in with the browser-session cookie (docs/web.md)."""
