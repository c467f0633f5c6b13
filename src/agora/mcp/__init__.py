"""The MCP tool server (interface §5.7): the same services as REST, as MCP tools."""
