"""Authentication (API keys in two header forms) and workspace resolution."""
