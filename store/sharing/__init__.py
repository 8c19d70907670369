"""Many processes, one store: an owner process per store holds the one DuckDB connection,
the fingerprint and the caches, and serves every ``anchormem serve`` and CLI process of
that store over a local socket (adr/0012).

    platform   locks and listener addresses: everything that differs between systems
    protocol   the owner's files and its small versioned request protocol
    codec      the service's values as JSON and back
    client     finding, starting and calling the owner (``OwnerLink``)
    remote     ``RemoteService``: the owner's memory service, called over the socket

The owner process itself is ``server/owner.py``: it composes the runtime.
"""
