"""Migration revisions, oldest first (each names the one it revises)."""
