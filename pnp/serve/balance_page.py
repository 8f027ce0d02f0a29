"""The balance page of one game (``/balance/<slug>``): a frame the page's script fills from
``/balance/<slug>.json`` (pnp.serve.balance) and fills again each time the sweep moves on.

The charts are the balance report's own SVG (pnp.play.charts), drawn by the server and sent in
the JSON; the script puts them in the page and writes every other figure as text, so nothing
from the game's files becomes markup. Like the preview page, it loads, runs and styles only
what the preview serves (the server's Content-Security-Policy).
"""

from __future__ import annotations

from html import escape

from pnp.serve.balance import CHUNK, RULES_FILE, SEED

STYLE = """
#balance-status.busy::before { content: "⟳ "; }
.balance-error { background: #fde8e6; border: 2px solid #c0392b; border-radius: 6px; padding: .5em 1em;
                 white-space: pre-wrap; }
.balance-setting { background: #fff; border-radius: 6px; padding: .5em 1em 1em; margin: 1em 0; }
.balance-setting table { border-collapse: collapse; margin: .5em 0; }
.balance-setting td, .balance-setting th { border-bottom: 1px solid #ddd; padding: 2px 8px; text-align: right; }
.balance-setting td:first-child, .balance-setting th:first-child { text-align: left; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
svg.chart { background: #fff; border: 1px solid #eee; }
"""


def balance_page(slug: str, games: int) -> str:
    """The page's frame; its script (``/balance.js``) reads the game from ``data-game``."""
    name = escape(slug)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pnp serve: balance of {name}</title>
<link rel="stylesheet" href="/page.css">
<link rel="stylesheet" href="/balance.css">
</head>
<body>
<header>
<strong>pnp serve</strong>
<a href="/#{name}">{name}: cards and books</a>
</header>
<main id="balance" data-game="{name}" data-version="" data-generation="" data-games="" data-status="">
<h1>Balance of {name}</h1>
<p class="note">The rules of card_data/{name}/{RULES_FILE} played by the game's bots: its usual
player count and one more and one fewer where the rules allow, {games:,} games each on seeds
{SEED}–{SEED + games - 1} (the same deals for every count), {CHUNK} games of each count at a time.
Every figure has its 95 % interval. A save of {RULES_FILE} starts the sweep again.</p>
<p id="balance-status" class="busy">loading…</p>
<pre id="balance-error" class="balance-error" hidden></pre>
<ul id="balance-flags"></ul>
<div id="balance-overview" class="charts"></div>
<div id="balance-settings"></div>
</main>
<script src="/balance.js"></script>
</body>
</html>
"""


SCRIPT = """(function () {
  const root = document.getElementById("balance");
  const game = root.dataset.game;
  const percent = (v) => (v * 100).toFixed(1) + "%";
  const plain = (v) => v.toFixed(2);

  function figure(f, show) {
    if (f.value === null) return "n/a";
    return show(f.value) + (f.low === null ? "" : " (" + show(f.low) + "–" + show(f.high) + ")");
  }

  function element(tag, text, className) {
    const made = document.createElement(tag);
    if (text !== undefined) made.textContent = text;
    if (className) made.className = className;
    return made;
  }

  function row(table, name, value, kind) {
    const line = element("tr");
    line.append(element("td", name), element("td", value, kind));
    table.append(line);
  }

  function charts(data, setting) {
    const box = element("div", undefined, "charts");
    box.innerHTML = data.charts.filter((c) => c.setting === setting).map((c) => c.svg).join("");
    return box;
  }

  const STATUS = {
    "not started": () => "not started",
    "waiting": () => "waiting for the preview to rebuild…",
    "starting": () => "loading the rules…",
    "running": (d) => "playing: " + d.games.toLocaleString("en") + " of " + d.planned.toLocaleString("en") + " games",
    "done": (d) => "done: " + d.games.toLocaleString("en") + " games",
    "error": () => "stopped: the rules cannot be played (below)",
    "no engine": () => "no balance for this game",
  };

  function draw(data) {
    Object.assign(root.dataset, {version: data.version, generation: data.generation,
                                 games: data.games, status: data.status});
    const status = document.getElementById("balance-status");
    status.textContent = "sweep " + data.generation + ": " + (STATUS[data.status] || String)(data)
      + (data.paused ? " (paused while the preview rebuilds)" : "");
    status.className = ["waiting", "starting", "running"].includes(data.status) ? "busy" : "";
    const error = document.getElementById("balance-error");
    error.textContent = data.message;
    error.hidden = !data.message;
    error.className = data.status === "no engine" ? "note" : "balance-error";
    document.getElementById("balance-flags").replaceChildren(
      ...data.flags.map((flag) => element("li", flag)));
    document.getElementById("balance-overview").replaceChildren(...charts(data, null).childNodes);
    document.getElementById("balance-settings").replaceChildren(...data.settings.map((s) => {
      const section = element("section", undefined, "balance-setting");
      section.dataset.setting = s.id;
      section.dataset.players = s.players;
      section.append(element("h2", s.label + " · " + s.games.toLocaleString("en") + " games"));
      const table = element("table");
      table.append(element("tr"));
      table.firstChild.append(element("th", "figure"), element("th", "value (95 % CI)"));
      s.wins.by_seat.forEach((f, seat) => row(table, "wins: seat " + (seat + 1), figure(f, percent), "seat-win"));
      for (const [key, f] of Object.entries(s.length)) row(table, "length: " + key, figure(f, plain), "length");
      for (const key of ["winning", "spread"]) {
        if (s.scores[key]) row(table, "score: " + key, figure(s.scores[key], plain), "score");
      }
      section.append(table, charts(data, s.id));
      return section;
    }));
  }

  async function follow() {
    let pause = 0;
    try {
      const after = root.dataset.version;
      const reply = await fetch("/balance/" + encodeURIComponent(game) + ".json?after=" + after, {cache: "no-store"});
      if (!reply.ok) throw new Error(reply.status);
      const data = await reply.json();
      draw(data);
      // While games come in, at most two redraws a second: each view costs the server time.
      if (["starting", "running"].includes(data.status)) pause = 500;
    } catch (error) {
      document.getElementById("balance-status").textContent = "pnp serve is not answering (stopped?); trying again…";
      pause = 2000;
    }
    setTimeout(follow, pause);
  }
  follow();
})();
"""
