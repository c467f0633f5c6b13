"""Organizations people run themselves: members, roles, invitations (auth/roles.py table)."""
