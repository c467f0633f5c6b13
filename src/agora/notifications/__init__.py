"""Job status notifications (outbox written in the job's transaction, delivered after commit)."""
