"""``RemoteService``: the memory service of the store's owner, called over its socket. It
makes every call of ``store.service_api.Service`` with the same arguments and returns
the same typed results (``store.sharing.codec``), so the MCP tools call either one."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from store.service_api import CALLS, RESENDABLE
from store.sharing.client import OwnerLink
from store.sharing.codec import CodecError, encode

__all__ = ["RemoteService"]


class RemoteService:
    """The owner's ``MemoryService``, through ``link``: a ``Service`` whose calls (the
    names of ``CALLS``) each send one message, and may be sent again to a new owner if
    they are ``RESENDABLE``. A progress callback does not cross the socket."""

    def __init__(self, link: OwnerLink) -> None:
        self.link = link

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name not in CALLS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return functools.partial(self._call, name)

    def _call(self, method: str, *args: object, **kwargs: object) -> Any:
        message = self._message("call", method, args, kwargs)
        return self.link.request(message, resend=method in RESENDABLE)

    def close(self) -> None:
        self.link.close()

    def tool(
        self, method: str, args: Sequence[object], kwargs: dict[str, object], detail: bool
    ) -> dict[str, Any]:
        """A tool's call of ``method``, rendered by the owner as the agent sees it: the
        fields of a ``server.rendering.ToolContent`` (model, structured, text), which this
        process relays, never decoding a typed result."""
        message = {**self._message("tool", method, args, kwargs), "detail": bool(detail)}
        reply = self.link.request(message, resend=method in RESENDABLE, raw=True)
        if not isinstance(reply, dict) or not all(
            isinstance(reply.get(k), t)
            for k, t in (("model", str), ("structured", dict), ("text", str))
        ):
            raise CodecError("the store's owner sent a malformed tool result")
        return {k: reply[k] for k in ("model", "structured", "text")}

    @staticmethod
    def _message(
        op: str, method: str, args: Sequence[object], kwargs: dict[str, object]
    ) -> dict[str, Any]:
        kwargs = {k: v for k, v in kwargs.items() if k != "progress"}  # a callback of ours
        return {"op": op, "method": method, "args": encode(list(args)), "kwargs": encode(kwargs)}
