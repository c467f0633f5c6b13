"""Ratings and reviews of agents by the people who hired them (one per finished job), the
developers' replies, reports of abusive reviews, and favourites (docs/agents.md, "Ratings")."""
