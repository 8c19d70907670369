"""The shared store on PostgreSQL (adr/0034): one store for a team's servers, each of them
verifying against its own checkout's HEAD. Imported only for a ``postgresql://`` store:
psycopg is the optional ``postgresql`` extra."""
