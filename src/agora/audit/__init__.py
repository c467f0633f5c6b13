"""The audit log: who did what (security- and money-relevant actions), written by ``record`` in
the action's own transaction; read by operators (all of it) and by an organization's owners and
admins (their organization's part). docs/operations.md, "The audit log"."""
