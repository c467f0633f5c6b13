"""Billing: people and organizations buy credit packs with Stripe (PaymentIntents); credits are
granted only by a verified webhook; refunds and disputes take them back; spending caps and
low-balance warnings (docs/billing.md)."""
