"""Evidence about memories: observations and what they may do, confidence and bands,
the review queue, and the service that records them (seeds 000, 001; adr/0005)."""
