"""The build pipeline: which games, what each output is built from, staged all-or-nothing writes."""
