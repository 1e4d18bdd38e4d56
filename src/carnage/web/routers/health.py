"""``GET /healthz`` (the process answers) and ``GET /readyz`` (it can serve games: the
database answers, its migrations are all applied, and on PostgreSQL the change listener is
connected). A load balancer or orchestrator sends traffic only to a ready process."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from carnage.web.schemas import Message
from carnage.web.sessions import ApiError

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Liveness: the process answers")
def healthz() -> dict[str, str]:
    return {"status": "alive"}


@router.get("/readyz", responses={503: {"model": Message}},
            summary="Readiness: database reachable, migrations applied, change listener "
                    "connected (PostgreSQL); 503 with a sentence when not ready")
def readyz(request: Request) -> dict[str, Any]:
    from carnage.campaign.migrate import HEAD, current
    from carnage.web.db import Store
    from carnage.web.fanout import ChangeFeed

    store: Store = request.app.state.store
    try:
        store.ping()
        at = current(store.engine)
    except Exception as e:
        first = str(e).strip().splitlines()[0][:200] if str(e).strip() else type(e).__name__
        raise ApiError(503, f"not ready: the database cannot be reached ({first})") from None
    if at != HEAD:
        raise ApiError(503, f"not ready: the database is at migration {at}, not {HEAD} "
                            "(start a server of this version to migrate it)")
    feed: ChangeFeed | None = getattr(request.app.state, "feed", None)
    if store.postgres and (feed is None or not feed.connected):
        why = f" ({feed.problem})" if feed is not None and feed.problem else ""
        raise ApiError(503, "not ready: the change listener is not connected to the "
                            f"database{why}, so this process would miss other processes' moves")
    return {"status": "ready", "database": store.engine.dialect.name, "migration": at,
            "listener": feed is not None and feed.connected}
