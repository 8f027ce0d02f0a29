"""Rulebooks, player aids and sample transcripts: Markdown to typeset PDF."""
