"""The inspector's way to the store: the memory service, reached as the CLI reaches it.

With sharing on (the default, adr/0012) that is ``RemoteService`` over the store's owner
process, started if none runs: the inspector never opens the DuckDB file itself, so agents
keep writing while it is open. With ``ANCHORMEM_SHARE=0`` it opens the store in this
process, as the CLI then does."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.config import Settings

if TYPE_CHECKING:
    from store.service import MemoryService
    from store.sharing.remote import RemoteService

    Service = MemoryService | RemoteService

__all__ = ["open_service"]


def open_service(settings: Settings) -> tuple[Service, Callable[[], None]]:
    """The service for ``settings``' store, and how to let it go."""
    if settings.share:
        from server.sharing import owner_link
        from store.sharing.remote import RemoteService

        link = owner_link(settings)
        link.connect_first()  # the owner starts now, not on the first page
        remote = RemoteService(link)
        return remote, remote.close
    from server.runtime import open_runtime

    runtime = open_runtime(settings)
    return runtime.service, runtime.close
