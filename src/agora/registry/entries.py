"""A registry feed's entry as Agora stores it: read with the registry service's names and the
payment node's alike, checked, or refused with the reason (``Invalid``: the entry goes to the
quarantine). Links are kept as the registry gives them (``ipfs://`` …): data, never rendered as
links unless http(s) (agents/views.py checks again)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from agora.kit.money import BASE_UNITS_PER_CREDIT
from agora.mip003.client import validate_base_url
from agora.models.statuses import PricingType

_IDENTIFIER = re.compile(r"^[A-Za-z0-9._:-]{1,500}$")
MARKED_INVALID = "the registry marks this entry Invalid"
MAX_TAGS, MAX_OUTPUTS, MAX_ENTRY_BYTES = 15, 25, 64 * 1024


class Invalid(Exception):
    pass


@dataclass(frozen=True)
class Entry:
    identifier: str
    status: str
    base_url: str
    price: int
    pricing_type: PricingType
    listing: dict[str, Any]


def _get(entry: dict[str, Any], *names: str) -> Any:
    for name in names:
        if name in entry and entry[name] is not None:
            return entry[name]
    return None


def _text(value: Any, what: str, max_length: int, *, required: bool = False) -> str | None:
    if value is None:
        if required:
            raise Invalid(f"{what} is missing")
        return None
    if not isinstance(value, str):
        raise Invalid(f"{what} is not a string")
    value = value.strip()
    if required and not value:
        raise Invalid(f"{what} is empty")
    if len(value) > max_length:
        raise Invalid(f"{what} is longer than {max_length} characters")
    return value or None


def _data_link(value: Any, what: str) -> str | None:
    """A link kept as the registry gives it (``https://``, ``ipfs://``, anything): data. Only
    http(s) values are ever rendered as links (agents/views.py ``_web_link``)."""
    return _text(value, what, 2000)


def _amounts(pricing: dict[str, Any]) -> list[dict[str, str]]:
    fixed = _get(pricing, "FixedPricing", "fixedPricing")
    if isinstance(fixed, dict):
        amounts = _get(fixed, "Amounts", "amounts")
    else:  # the payment node's spelling (POST /registry): AgentPricing.Pricing, or a list
        amounts = fixed if isinstance(fixed, list) else _get(pricing, "Pricing", "Amounts")
    if not isinstance(amounts, list) or not amounts:
        raise Invalid("AgentPricing: a Fixed price needs Amounts")
    out = []
    for item in amounts:
        if not isinstance(item, dict):
            raise Invalid("AgentPricing.Amounts: an amount is not an object")
        unit, amount = item.get("unit"), item.get("amount")
        if not isinstance(unit, str) or not isinstance(amount, (str, int)) or len(unit) > 250:
            raise Invalid("AgentPricing.Amounts: an amount needs a unit and an amount")
        out.append({"amount": str(amount), "unit": unit})
    return out


def _price(pricing: Any, units: dict[str, float]) -> tuple[int, PricingType, dict[str, Any]]:
    """(price in credit base units, pricing type, the registry's pricing as kept in listing)."""
    if pricing is None:
        return 0, PricingType.FREE, {"pricingType": "Free"}
    if not isinstance(pricing, dict):
        raise Invalid("AgentPricing is not an object")
    kind = str(pricing.get("pricingType") or "").lower()
    if kind == "free":
        return 0, PricingType.FREE, {"pricingType": "Free"}
    if kind == "dynamic":  # the agent signs its amounts per job (/start_job)
        return 0, PricingType.DYNAMIC, {"pricingType": "Dynamic"}
    if kind != "fixed":
        raise Invalid(f"AgentPricing.pricingType {pricing.get('pricingType')!r} is not supported")
    amounts = _amounts(pricing)
    total = Decimal(0)
    for item in amounts:
        unit = item["unit"]
        if unit not in units:
            raise Invalid(f"AgentPricing: unknown unit {unit!r} (no credit rate configured)")
        try:
            amount = Decimal(item["amount"])
        except InvalidOperation as exc:
            raise Invalid("AgentPricing: an amount is not a number") from exc
        if not amount.is_finite() or amount < 0:
            raise Invalid("AgentPricing: an amount is negative or not finite")
        total += amount * Decimal(str(units[unit]))
    base = int((total * BASE_UNITS_PER_CREDIT).to_integral_value())
    if base > 1_000_000 * BASE_UNITS_PER_CREDIT:
        raise Invalid("AgentPricing: more than 1000000 credits")
    kept = {"pricingType": "Fixed", "amounts": amounts}
    return base, PricingType.FIXED if base else PricingType.FREE, kept


def _example_outputs(raw: dict[str, Any]) -> list[dict[str, Any]]:
    # The registry service's name is ExampleOutput (singular); the payment node's POST /registry
    # says ExampleOutputs.
    outputs_raw = _get(raw, "ExampleOutput", "ExampleOutputs", "exampleOutputs") or []
    if not isinstance(outputs_raw, list) or len(outputs_raw) > MAX_OUTPUTS:
        raise Invalid(f"ExampleOutput must be a list of at most {MAX_OUTPUTS}")
    outputs = []
    for i, item in enumerate(outputs_raw):
        if not isinstance(item, dict):
            raise Invalid(f"ExampleOutput.{i} is not an object")
        outputs.append(
            {
                "name": _text(item.get("name"), f"ExampleOutput.{i}.name", 200, required=True),
                "mimeType": _text(
                    _get(item, "mimeType", "mime_type"), f"ExampleOutput.{i}.mimeType", 200
                )
                or "",
                "url": _data_link(item.get("url"), f"ExampleOutput.{i}.url")
                or _missing(f"ExampleOutput.{i}.url"),
            }
        )
    return outputs


def _author(raw: dict[str, Any]) -> dict[str, Any] | None:
    author_raw = _get(raw, "Author", "author")
    if isinstance(author_raw, dict):
        author = {
            "name": _text(author_raw.get("name"), "Author.name", 200) or "",
            "contactEmail": _text(author_raw.get("contactEmail"), "Author.contactEmail", 320),
            "contactOther": _text(author_raw.get("contactOther"), "Author.contactOther", 500),
            "organization": _text(author_raw.get("organization"), "Author.organization", 200),
        }
    elif _get(raw, "authorName") is not None:
        author = {
            "name": _text(_get(raw, "authorName"), "authorName", 200) or "",
            "contactEmail": _text(_get(raw, "authorContactEmail"), "authorContactEmail", 320),
            "contactOther": _text(_get(raw, "authorContactOther"), "authorContactOther", 500),
            "organization": _text(_get(raw, "authorOrganization"), "authorOrganization", 200),
        }
    else:
        return None
    return {k: v for k, v in author.items() if v is not None}


def _registry_facts(raw: dict[str, Any]) -> dict[str, Any]:
    """What the registry says about the entry beyond its text: kept, not interpreted."""
    source = raw.get("RegistrySource")
    capability = raw.get("Capability")
    facts = {
        "id": _text(_get(raw, "id"), "id", 100) if isinstance(raw.get("id"), str) else None,
        "paymentType": _text(_get(raw, "paymentType"), "paymentType", 50),
        "policyId": _text(source.get("policyId"), "RegistrySource.policyId", 250)
        if isinstance(source, dict)
        else None,
        "capability": {
            "name": _text(capability.get("name"), "Capability.name", 150),
            "version": _text(capability.get("version"), "Capability.version", 150),
        }
        if isinstance(capability, dict)
        else None,
        "metadataVersion": raw.get("metadataVersion")
        if isinstance(raw.get("metadataVersion"), int)
        else None,
    }
    return {k: v for k, v in facts.items() if v is not None}


def parse_entry(raw: Any, units: dict[str, float]) -> Entry:
    """A feed entry as Agora stores it, or ``Invalid`` with the reason.

    Read with the registry service's names (``tags``, ``ExampleOutput``, ``authorName``…,
    ``privacyPolicy``/``termsAndCondition``/``otherLegal``, ``image``) and the payment node's
    (``Tags``, ``ExampleOutputs``, ``Author``, ``Legal``) alike.
    """
    if not isinstance(raw, dict):
        raise Invalid("the entry is not an object")
    if len(json.dumps(raw, default=str)) > MAX_ENTRY_BYTES:
        raise Invalid(f"the entry is larger than {MAX_ENTRY_BYTES} bytes")
    identifier = _text(_get(raw, "agentIdentifier"), "agentIdentifier", 500, required=True)
    assert identifier is not None
    if not _IDENTIFIER.match(identifier):
        raise Invalid("agentIdentifier has characters other than letters, digits and ._:-")
    status = str(_get(raw, "status") or "Online")
    if status.lower() == "invalid":
        raise Invalid(MARKED_INVALID)
    base_url = _text(_get(raw, "apiBaseUrl", "apiUrl"), "apiBaseUrl", 2000, required=True)
    assert base_url is not None
    try:
        base_url = validate_base_url(base_url)
    except ValueError as exc:
        raise Invalid(f"apiBaseUrl: {exc}") from exc
    name = _text(_get(raw, "name"), "name", 200, required=True)
    tags_raw = _get(raw, "tags", "Tags") or []
    if not isinstance(tags_raw, list) or len(tags_raw) > MAX_TAGS:
        raise Invalid(f"tags must be a list of at most {MAX_TAGS}")
    tags: list[str] = []
    for tag in tags_raw:
        tag = tag.get("name") if isinstance(tag, dict) else tag
        text = _text(tag, "a tag", 50)
        if text and text not in tags:
            tags.append(text)
    outputs = _example_outputs(raw)
    author = _author(raw)
    legal_raw = _get(raw, "Legal", "legal")
    legal_src = legal_raw if isinstance(legal_raw, dict) else raw
    legal = {
        "privacyPolicy": _data_link(_get(legal_src, "privacyPolicy"), "privacyPolicy"),
        "terms": _data_link(_get(legal_src, "termsAndCondition", "terms"), "termsAndCondition"),
        "other": _data_link(_get(legal_src, "otherLegal", "other"), "otherLegal"),
    }
    price, pricing_type, pricing = _price(_get(raw, "AgentPricing", "agentPricing"), units)
    listing: dict[str, Any] = {
        "name": name,
        "description": _text(_get(raw, "description"), "description", 10_000) or "",
        "tags": tags,
        "image": _data_link(_get(raw, "image"), "image"),
        "exampleOutputs": outputs,
        "author": author or None,
        "legal": {k: v for k, v in legal.items() if v is not None} or None,
        "registryStatus": status,
        "pricing": pricing,
        "registry": _registry_facts(raw),
    }
    return Entry(identifier, status, base_url, price, pricing_type, listing)


def _missing(what: str) -> str:
    raise Invalid(f"{what} is missing")


def entry_key(raw: Any) -> str:
    """What identifies an entry in the quarantine: its agentIdentifier, its id, or a digest."""
    if isinstance(raw, dict):
        for name in ("agentIdentifier", "id"):
            value = raw.get(name)
            if isinstance(value, (str, int)) and 0 < len(str(value)) <= 500:
                return f"{name}:{value}"
    digest = hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()
    return f"sha256:{digest}"
