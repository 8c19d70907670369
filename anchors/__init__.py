"""Typed anchors into the code, the commit fingerprint they are checked against, and verdicts."""
