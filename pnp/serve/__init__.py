"""The designer's loop: rebuild on save (:mod:`pnp.serve.watch`) and a live preview in the
browser (:mod:`pnp.serve.preview` builds what it shows, :mod:`pnp.serve.page` writes the HTML,
:mod:`pnp.serve.server` serves it), with a live balance sweep of each game's rules
(:mod:`pnp.serve.balance` runs it, :mod:`pnp.serve.balance_page` shows it)."""
