"""Users, organizations, memberships, workspaces and API keys."""
