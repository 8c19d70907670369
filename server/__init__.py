"""The composition root: MCP server, CLI and configuration."""
