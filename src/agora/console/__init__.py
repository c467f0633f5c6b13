"""The operator's console: the admin API's people, money and health routes (users, suspension,
credit grants, the dashboard) and the services the console's web pages share with it.
docs/operations.md, "The operator's console"."""
