"""Memories and their rules: lifecycle, receipts, audit; persisted in DuckDB."""
