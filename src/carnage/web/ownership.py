"""Who may change a saved thing: its owner token.

Creating a team (and, later, a campaign) hands back an ``owner_token``, a secret the browser
keeps like a seat token. Changing or deleting the thing needs that token in the
``X-Owner-Token`` header; listing shows only what the tokens sent own. The database keeps a
SHA-256 hash of each token, never the token itself. Any kind of record can use this: an owner
row is keyed by (kind, id).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from sqlalchemy import String, delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

HEADER = "X-Owner-Token"
"""The request header carrying owner tokens (several joined by commas, for listing)."""
MAX_TOKENS = 500
"""Owner tokens one request may send (one per saved thing the browser owns)."""
MAX_TOKEN_LENGTH = 100


class _Base(DeclarativeBase):
    pass


class OwnerRow(_Base):
    __tablename__ = "owners"

    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    oid: Mapped[str] = mapped_column(String(40), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), index=True)


class NotOwner(Exception):
    """The request does not carry the owner token of the thing it would change."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def split_tokens(header: str | None) -> list[str]:
    """The tokens of an ``X-Owner-Token`` header (comma-separated), bounded and de-duplicated."""
    if not header:
        return []
    out: list[str] = []
    for t in header.split(",")[:MAX_TOKENS]:
        t = t.strip()
        if t and len(t) <= MAX_TOKEN_LENGTH and t not in out:
            out.append(t)
    return out


class Owners:
    """Owner tokens of saved things, in the web table's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        _Base.metadata.create_all(engine)

    def claim(self, kind: str, oid: str) -> str:
        """A new owner token for (kind, oid); only its hash is stored."""
        token = secrets.token_urlsafe(24)
        with Session(self.engine) as s, s.begin():
            s.merge(OwnerRow(kind=kind, oid=oid, token_hash=_hash(token)))
        return token

    def owns(self, kind: str, oid: str, tokens: Iterable[str]) -> bool:
        with Session(self.engine) as s:
            row = s.get(OwnerRow, (kind, oid))
            if row is None:
                return False
            return any(hmac.compare_digest(row.token_hash, _hash(t)) for t in tokens)

    def require(self, kind: str, oid: str, header: str | None, what: str) -> None:
        """``NotOwner`` unless ``header`` carries the owner token of (kind, oid)."""
        tokens = split_tokens(header)
        if not tokens:
            raise NotOwner(f"changing {what} needs its owner token in the {HEADER} header")
        if not self.owns(kind, oid, tokens):
            raise NotOwner(f"{what} belongs to someone else: the {HEADER} given is not its "
                           "owner token")

    def owned(self, kind: str, header: str | None) -> set[str]:
        """Ids of the things of ``kind`` whose owner tokens ``header`` carries."""
        hashes = [_hash(t) for t in split_tokens(header)]
        if not hashes:
            return set()
        with Session(self.engine) as s:
            rows = s.scalars(select(OwnerRow.oid).where(
                OwnerRow.kind == kind, OwnerRow.token_hash.in_(hashes)))
            return set(rows)

    def held(self, kind: str, prefix: str) -> set[str]:
        """Ids of the things of ``kind`` that have an owner and start with ``prefix``."""
        with Session(self.engine) as s:
            rows = s.scalars(select(OwnerRow.oid).where(
                OwnerRow.kind == kind, OwnerRow.oid.startswith(prefix, autoescape=True)))
            return set(rows)

    def release(self, kind: str, oid: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(OwnerRow).where(OwnerRow.kind == kind, OwnerRow.oid == oid))


# -- campaigns ---------------------------------------------------------------------------------
CAMPAIGN_KIND = "campaign"
"""Ownership kind of a campaign's owner token (id: the campaign's id)."""
SEAT_KIND = "cseat"
"""Ownership kind of a campaign seat's token (id ``<campaign>.<seat>``)."""


def seat_oid(cid: str, seat: int) -> str:
    return f"{cid}.{seat}"


def issue_campaign_tokens(owners: Owners, cid: str,
                          seats: Iterable[int]) -> tuple[str, dict[int, str]]:
    """A new campaign's owner token and one token per seat (the web page and
    ``carnage campaign new`` both hand them out once; only their hashes are kept)."""
    owner = owners.claim(CAMPAIGN_KIND, cid)
    return owner, {s: owners.claim(SEAT_KIND, seat_oid(cid, s)) for s in seats}


def campaign_links(cid: str, owner: str | None, seats: dict[int, str]) -> dict[str, object]:
    """Where each token is used: the owner's page link and each seat's."""
    out: dict[str, object] = {"id": cid, "url": f"/campaigns/{cid}"}
    if owner is not None:
        out["owner_token"] = owner
        out["owner_url"] = f"/campaigns/{cid}?owner={owner}"
    out["seats"] = [{"seat": s, "token": t, "url": f"/campaigns/{cid}?token={t}"}
                    for s, t in sorted(seats.items())]
    return out
