"""The contamination-experiment harness and its fact sets."""
