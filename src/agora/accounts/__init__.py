"""Accounts people run themselves: sign-up, sign-in, sessions, tokens, API keys over HTTP."""
