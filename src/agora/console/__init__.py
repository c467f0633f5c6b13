"""The operator's console: the admin API's people, money and health routes (users,
organizations, jobs, suspension, credit grants, the dashboard) and the console's web pages,
both calling the same use cases (``users``, ``organizations``, ``jobs``, ``dashboard``; the
review queue's in ``service``). docs/operations.md, "The operator's console".

An operator is a user holding a live admin key; from a browser an action (not a read) also needs
a password or magic-link proof within ``AGORA_ADMIN_REAUTH_MINUTES`` (an admin key is its own
proof): the doors check it (``accounts.require_operator``) and hand the use case its actor."""
