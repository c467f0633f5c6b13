"""Where a person's data lives: every table, how its rows about one person are found, and what
becomes of each column that can hold text when that person's account is erased.

One declaration drives both rights (users/, docs/accounts.md): the export ("Your data") writes
every row a table's ``reach`` finds, without its ``secret`` columns; the erasure ("Deleting your
account") applies each table's ``fate`` to the rows its ``erase`` reach finds. A table added
later is not forgotten silently: ``tests/models/test_personal_data.py`` fails while a table, a
column that can hold text (string, text, JSON) or a column referring to ``users`` is missing
here.

Treatments of a column:
- ``ERASE``: emptied (NULL, "" or an empty JSON value) in the rows erased.
- ``ANONYMISE``: replaced by a fixed stand-in (``value``; a callable of the user id for a
  column that must stay unique, the account's email).
- ``KEEP``: kept, with ``why`` (the operator must keep it, or it is someone else's).
- ``NOT_PERSONAL``: a status, a kind, a hash, a machine id: nothing about the person.

Fates of a table's erased rows: ``DELETE`` (the rows go; children by their foreign keys),
``SCRUB`` (the rows stay, their ERASE and ANONYMISE columns are rewritten), ``KEEP`` (left as
they are: ``why``). A table with no reach holds nothing about one person (``why``).

The account row itself becomes a tombstone (``users``: SCRUB): the rows other people and the
books still refer to keep pointing at it, and it names no one.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Treat(StrEnum):
    ERASE = "erase"
    ANONYMISE = "anonymise"
    KEEP = "keep"
    NOT_PERSONAL = "not personal"


class Fate(StrEnum):
    DELETE = "delete"
    SCRUB = "scrub"
    KEEP = "keep"


@dataclass(frozen=True)
class Col:
    treat: Treat
    why: str = ""
    value: Any = None  # ANONYMISE: the stand-in, or a callable of the user id
    secret: bool = False  # never exported (a hash, a signing secret)


@dataclass(frozen=True)
class Reach:
    """How rows about a person are found: ``column`` equals the user's id (``user``), their
    personal workspace's id (``workspace``), the id as text (``user_text``), holds their email
    address (``mentions``), or is the id of a row that ``parent``'s reach finds."""

    kind: str  # user | workspace | user_text | mentions | parent
    column: str
    parent: str = ""  # kind "parent": the parent table


def user(column: str) -> Reach:
    return Reach("user", column)


def workspace(column: str) -> Reach:
    return Reach("workspace", column)


def user_text(column: str) -> Reach:
    return Reach("user_text", column)


def mentions(column: str) -> Reach:
    return Reach("mentions", column)


def parent(column: str, table: str) -> Reach:
    return Reach("parent", column, table)


@dataclass(frozen=True)
class Table:
    """A table's declaration. ``reach``: the rows the export writes (none: about no one);
    ``erase``: the rows the erasure changes (default: ``reach``); ``export``: whether the export
    writes them (False: they are written under another table, or hold only secrets)."""

    name: str
    columns: dict[str, Col]
    reach: tuple[Reach, ...] = ()
    fate: Fate = Fate.KEEP
    why: str = ""
    erase: tuple[Reach, ...] | None = None
    export: bool = True
    users: frozenset[str] = field(default_factory=frozenset)  # columns referring to users.id

    @property
    def erase_reach(self) -> tuple[Reach, ...]:
        return self.reach if self.erase is None else self.erase


E = Col(Treat.ERASE)
NP = Col(Treat.NOT_PERSONAL)
SECRET = Col(Treat.ERASE, secret=True)


def keep(why: str) -> Col:
    return Col(Treat.KEEP, why)


def anonymise(value: Any) -> Col:
    return Col(Treat.ANONYMISE, value=value)


def _cols(names: str, col: Col) -> dict[str, Col]:
    return dict.fromkeys(names.split(), col)


def erased_email(user_id: uuid.UUID) -> str:
    """The address of an erased account: unique, and no mail can reach it (RFC 2606)."""
    return f"erased-{user_id.hex}@erased.invalid"


ERASED_NAME = "Deleted account"

BOOKS = (
    "bookkeeping: money that moved must stay provable for the years tax law asks (e.g. ten "
    "years in Germany, HGB §257 / AO §147); the rows point at the anonymous account row"
)
ORGANIZATION_RECORD = (
    "the organization's own record of its workspace's work, attributed to the anonymous account row"
)
AUDIT = (
    "the audit log is the operator's evidence of security- and money-relevant actions (kept for "
    "AGORA_AUDIT_RETENTION_DAYS); the actor and target ids point at the anonymous account row, "
    "the address and the free details are erased"
)
CATALOGUE = "the catalogue's own data (agents, categories, checks): about no person"


TABLES: tuple[Table, ...] = (
    # ---- the account itself ------------------------------------------------------------------
    Table(
        "users",
        {
            "email": anonymise(erased_email),
            "name": anonymise(ERASED_NAME),
            "image": E,
            "payment_customer_id": E,
            "notification_webhook_url": E,
            "notification_webhook_secret": SECRET,
            "password_hash": SECRET,
        },
        reach=(Reach("user", "id"),),
        fate=Fate.SCRUB,
        why="the tombstone: the row stays so the books and other people's rows keep a referent",
    ),
    Table(
        "workspaces",
        {"name": anonymise(ERASED_NAME), "kind": NP, "stripe_customer_id": E},
        reach=(user("owner_user_id"),),
        fate=Fate.SCRUB,
        why="the personal workspace is also the credit account its ledger entries belong to",
        users=frozenset({"owner_user_id"}),
    ),
    Table(
        "account_tokens",
        {"purpose": NP, "token_hash": SECRET, "email": E, "role": NP},
        reach=(user("user_id"), mentions("email")),
        fate=Fate.DELETE,
        export=False,
        why="one-time links: secrets only",
        users=frozenset({"user_id", "created_by"}),
    ),
    Table(
        "api_keys",
        {"kind": NP, "name": E, "prefix": NP, "key_hash": SECRET, "scopes": NP},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "browser_sessions",
        {"token_hash": SECRET, "method": NP, "user_agent": E, "client_address": E},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "passkeys",
        {"credential_id": SECRET, "name": E, "aaguid": NP, "transports": NP},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "recovery_codes",
        {"code_hash": SECRET},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        export=False,
        why="hashes of one-time codes: secrets only",
        users=frozenset({"user_id"}),
    ),
    Table(
        "user_identities",
        {"provider": NP, "issuer": NP, "subject": E, "email": E},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        why="a sign-in at an identity provider: who the person is there",
        users=frozenset({"user_id"}),
    ),
    Table(
        "oauth_grants",
        {"scopes": NP, "revoked_reason": NP},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        why="its tokens and device codes go with it (foreign keys)",
        users=frozenset({"user_id"}),
    ),
    Table(
        "oauth_tokens",
        {"kind": NP, "token_hash": SECRET, "code_challenge": NP, "redirect_uri": NP},
        why="deleted with their grant (oauth_grants); secrets only",
    ),
    Table(
        "oauth_device_codes",
        {"device_hash": SECRET, "user_code": NP, "scopes": NP},
        why="deleted with their grant (oauth_grants); secrets only",
    ),
    Table(
        "oauth_clients",
        _cols("client_id name client_uri redirect_uris grant_types auth_method", NP)
        | {"secret_hash": SECRET},
        why="a registered program, not a person",
    ),
    Table(
        "organization_members",
        {"role": NP},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "organizations",
        _cols("slug name logo suspension_reason sign_in_domain sign_in_provider", NP),
        why="an organization's name and logo are the organization's, not a person's",
    ),
    Table(
        "account_deletions",
        {"state": NP, "token_hash": SECRET},
        reach=(user("user_id"),),
        why="the erasure's own record: that the account was erased, and when",
        users=frozenset({"user_id"}),
    ),
    Table(
        "data_exports",
        {"state": NP, "storage_key": NP, "token_hash": SECRET, "error": NP},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        why="their blobs are deleted first",
        users=frozenset({"user_id"}),
    ),
    # ---- notifications -------------------------------------------------------------------------
    Table(
        "notifications",
        {"kind": NP, "subject_ref": NP, "title": E, "data": E},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "notification_preferences",
        _cols("kind channel", NP),
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "notification_deliveries",
        {"channel": NP, "event": NP, "target": E, "payload": E, "state": NP, "last_error": E},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "webhook_endpoints",
        {"url": E, "disabled_reason": E},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "webhook_signing_secrets",
        {"secret": SECRET},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        export=False,
        why="a signing secret only",
        users=frozenset({"user_id"}),
    ),
    Table(
        "job_webhooks",
        {"url": E, "events": NP},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    # ---- work: jobs, tasks, files, projects, schedules -----------------------------------------
    Table(
        "jobs",
        {
            "name": E,
            "input_data": E,
            "result": E,
            "error": E,
            "input_request": E,
            "idempotency_key": E,
            "share_token": E,
        }
        | _cols(
            "status job_type identifier_from_purchaser agent_job_id agent_job_status "
            "on_chain_status input_hash payment_backend blockchain_identifier payment "
            "result_hash request_hash dispatch_state lease_owner",
            NP,
        ),
        reach=(user("user_id"), workspace("workspace_id")),
        erase=(workspace("workspace_id"),),
        fate=Fate.SCRUB,
        why=(
            "the personal workspace's jobs keep their money columns (ledger entries and sellers' "
            "earnings refer to them) and lose their content; jobs in an organization's "
            f"workspace are kept: {ORGANIZATION_RECORD}"
        ),
        users=frozenset({"user_id", "share_user_id"}),
    ),
    Table(
        "job_events",
        {"type": NP, "from_status": NP, "to_status": NP, "detail": E},
        reach=(parent("job_id", "jobs"),),
        fate=Fate.SCRUB,
        why="the erased jobs' timelines keep their status moves; the details (messages) go",
    ),
    Table(
        "job_file_scans",
        {"state": NP},
        why="the output collector's bookkeeping: no content",
    ),
    Table(
        "stored_files",
        {"name": E, "source_url": E, "storage_key": E} | _cols("origin mime_type sha256 state", NP),
        reach=(user("user_id"), workspace("workspace_id")),
        erase=(workspace("workspace_id"),),
        fate=Fate.DELETE,
        why=(
            "the personal workspace's files (their blobs are deleted from storage); files in an "
            f"organization's workspace are kept: {ORGANIZATION_RECORD}"
        ),
        users=frozenset({"user_id"}),
    ),
    Table(
        "tasks",
        {"name": E, "description": E, "metadata": E} | _cols("status origin channel", NP),
        reach=(user("creator_id"), user("assignee_user_id"), workspace("workspace_id")),
        erase=(workspace("workspace_id"),),
        fate=Fate.DELETE,
        why=f"the personal workspace's tasks; an organization's are kept: {ORGANIZATION_RECORD}",
        users=frozenset({"creator_id", "assignee_user_id"}),
    ),
    Table(
        "task_events",
        {"comment": E, "authentication_url": E, "metadata": E, "change": E}
        | _cols("status actor_type kind channel origin", NP),
        reach=(user("actor_user_id"), parent("task_id", "tasks")),
        erase=(user("actor_user_id"),),
        fate=Fate.SCRUB,
        why="what the person wrote on any task is erased; the timeline entry stays",
        users=frozenset({"actor_user_id"}),
    ),
    Table(
        "task_participants",
        {},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "projects",
        {"name": E, "description": E},
        reach=(user("created_by"), workspace("workspace_id")),
        erase=(workspace("workspace_id"),),
        fate=Fate.DELETE,
        why=f"the personal workspace's; an organization's are kept: {ORGANIZATION_RECORD}",
        users=frozenset({"created_by"}),
    ),
    Table(
        "schedules",
        {"name": E, "input_data": E, "task_template": E, "state_reason": E}
        | _cols("cron timezone missed_policy state lease_owner", NP),
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        why="every schedule the person made, in any workspace: nothing runs in their name after",
        users=frozenset({"user_id"}),
    ),
    Table(
        "schedule_runs",
        _cols("status reason period", NP),
        reach=(parent("schedule_id", "schedules"),),
        erase=(),
        why="deleted with their schedule",
    ),
    Table(
        "saved_inputs",
        {"name": E, "input_data": E},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "conversations",
        {"title": E, "description": E},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        why="their messages go with them",
        users=frozenset({"user_id"}),
    ),
    Table(
        "messages",
        {"role": NP, "content": E},
        reach=(parent("conversation_id", "conversations"), user("author_id")),
        fate=Fate.DELETE,
        users=frozenset({"author_id"}),
    ),
    # ---- ratings, favourites, the assistant ------------------------------------------------------
    Table(
        "ratings",
        {
            "review": E,
            "reply": keep("the seller's public answer, theirs, not the reviewer's"),
        },
        reach=(user("user_id"),),
        fate=Fate.SCRUB,
        why="the stars stay in the agent's aggregate, anonymous; the review text is erased",
        users=frozenset({"user_id", "reply_user_id"}),
    ),
    Table(
        "rating_reports",
        {"reason": E},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "favourites",
        {},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table(
        "assistant_agents",
        {},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    # ---- money ---------------------------------------------------------------------------------
    Table(
        "ledger_entries",
        {"kind": NP, "memo": keep(BOOKS)},
        reach=(user("user_id"), workspace("workspace_id")),
        why=BOOKS,
        users=frozenset({"user_id"}),
    ),
    Table(
        "credit_purchases",
        {
            "currency": NP,
            "status": NP,
            "stripe_payment_intent_id": keep(BOOKS),
            "stripe_customer_id": keep(BOOKS),
            "stripe_charge_id": keep(BOOKS),
            "receipt_url": keep(BOOKS),
            "failure_message": NP,
        },
        reach=(user("user_id"), workspace("workspace_id")),
        why=BOOKS,
        users=frozenset({"user_id"}),
    ),
    Table(
        "promotion_redemptions",
        {},
        reach=(user("user_id"),),
        why=f"a code's uses are counted against its limits: {BOOKS}",
        users=frozenset({"user_id"}),
    ),
    Table(
        "earnings_entries",
        _cols("kind currency", NP),
        reach=(user("owner_user_id"),),
        why=f"a seller's earnings and payouts: {BOOKS}",
        users=frozenset({"owner_user_id"}),
    ),
    Table(
        "connected_accounts",
        _cols("account_key stripe_account_id requirements_due disabled_reason", NP),
        reach=(user("owner_user_id"),),
        why=f"the Stripe account a seller's payouts went to: {BOOKS}",
        users=frozenset({"owner_user_id"}),
    ),
    Table(
        "payouts",
        _cols(
            "account_key period currency status stripe_account_id stripe_transfer_id failure", NP
        ),
        reach=(user("owner_user_id"),),
        why=f"transfers to a seller: {BOOKS}",
        users=frozenset({"owner_user_id"}),
    ),
    Table(
        "coworker_usage",
        _cols("idempotency_key reference_id request_hash", NP),
        reach=(user("user_id"),),
        why=BOOKS,
        users=frozenset({"user_id"}),
    ),
    Table(
        "spending_caps",
        {"period": NP},
        reach=(user("user_id"),),
        fate=Fate.DELETE,
        users=frozenset({"user_id"}),
    ),
    Table("credit_packs", _cols("name currency", NP), why="the operator's price list"),
    Table("promotion_codes", {"code": NP}, why="the operator's codes"),
    Table("stripe_events", _cols("id type", NP), why="Stripe's event ids, for idempotency"),
    # ---- the audit log ---------------------------------------------------------------------------
    Table(
        "audit_events",
        {"client_address": E, "details": E}
        | _cols("action actor_kind target_kind target_id request_id", NP),
        reach=(user("actor_id"), user_text("target_id"), mentions("details")),
        fate=Fate.SCRUB,
        why=AUDIT,
    ),
    # ---- what a seller or a coworker's owner published -------------------------------------------
    Table(
        "agents",
        _cols(
            "name description base_url status pricing_type tags input_schema agent_identifier "
            "pending_changelog source review_state review_note image protocol a2a_card",
            NP,
        )
        | {"listing": E, "admin_override": NP, "a2a_credential": SECRET},
        reach=(user("owner_user_id"),),
        fate=Fate.SCRUB,
        why=(
            "a listing other people's jobs refer to: the row stays, withdrawn from the catalogue "
            "and unlinked from the account; the submitted listing (its author) and the sealed "
            "credential are erased, the published name and description stay with the jobs"
        ),
        users=frozenset({"owner_user_id"}),
    ),
    Table(
        "coworkers",
        {"email": E, "company": E, "company_logo": E, "url": E}
        | _cols("slug name caption base_url description image metadata capabilities", NP),
        reach=(user("owner_user_id"),),
        fate=Fate.SCRUB,
        why="an AI coworker's identity stays on the tasks it worked; its owner's contact goes",
        users=frozenset({"owner_user_id"}),
    ),
    Table("coworker_workspaces", {}, why="a coworker's access: no person"),
    Table(
        "agent_versions", _cols("base_url input_schema pricing_type changelog", NP), why=CATALOGUE
    ),
    Table("agent_checks", _cols("kind message", NP), why=CATALOGUE),
    Table("agent_daily_completions", {}, why=CATALOGUE),
    Table("agent_categories", {}, why=CATALOGUE),
    Table("categories", _cols("slug name description", NP), why=CATALOGUE),
    Table("conformance_runs", _cols("kind suite_version checks", NP), why=CATALOGUE),
    Table(
        "registry_checkpoints",
        _cols("source network source_url status_updated_after cursor_id", NP),
        why=CATALOGUE,
    ),
    Table(
        "registry_quarantine",
        _cols("source source_url entry_key reason entry dismissed_reason", NP),
        why=CATALOGUE,
    ),
)

BY_NAME: dict[str, Table] = {t.name: t for t in TABLES}


def anonymised_value(col: Col, user_id: uuid.UUID) -> Any:
    """The stand-in an ANONYMISE column takes for ``user_id``."""
    return col.value(user_id) if callable(col.value) else col.value
