"""Schedules: recurring runs of an agent (a cron expression in a time zone, or an interval), each
occurrence making at most one job through the jobs service (docs/schedules.md)."""
