"""Typed dependencies shared by the routers: the store and the live games of this app."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from carnage.web.db import Store
from carnage.web.ownership import Owners
from carnage.web.sessions import Games


def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def get_games(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


def get_owners(request: Request) -> Owners:
    owners: Owners = request.app.state.owners
    return owners


StoreDep = Annotated[Store, Depends(get_store)]
OwnersDep = Annotated[Owners, Depends(get_owners)]
GamesDep = Annotated[Games, Depends(get_games)]
