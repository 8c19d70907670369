"""Contradictions between memories: reading a claim's structure (``claims``), the rules that
detect and decide a conflict (``rules``), the differences they only ask about
(``questions``), the plan a decision makes (``resolving``) and
the service that runs them on remember and in a store-wide pass (``checking``); adr/0006."""
