"""Documented input limits (README: "Limits"). Anything larger is refused, not truncated."""

MAX_TEXT_CHARS = 8_000
MAX_SUBJECT_CHARS = 200
MAX_REASON_CHARS = 2_000
MAX_ANCHORS = 32
MAX_QUERY_CHARS = 1_000
MAX_QUERY_TOKENS = 16
MAX_RECALL_LIMIT = 100
MAX_ORIGIN_CHARS = 200
# One JSON-RPC message on stdio, in bytes: a longer line is refused while it is read,
# never held (server.stdio_guard). Generous: the largest valid remember is ~200 KB.
MAX_FRAME_BYTES = 1_048_576
