"""The preview page: one HTML document for the served games, written from a preview State.

Everything from the workspace (names, labels, error text) is escaped; the narration is HTML that
markdown-it wrote with raw HTML turned off. The page asks the server for the next version
(a long poll) and swaps its <main> for the new one, so it follows every save without a reload.
"""

from __future__ import annotations

from functools import cache

import jinja2

from pnp.serve.views import State
from pnp.text.fonts import FACE_FILES

# The workspace's own fonts, so Chinese shows on a machine without CJK fonts: family
# ``pnp-<lang>``, regular and bold.
FONT_FILES = tuple((f"pnp-{lang}", weight, file) for lang, files in FACE_FILES.items()
                   for weight, file in zip((400, 700), files, strict=True))

BODY_RULE = "body { font-family: system-ui, sans-serif; margin: 0; color: #222; background: #f4f2ee; }\n"

TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pnp serve: {{ state.games | map(attribute="title") | join(" · ") or "preview" }}</title>
<link rel="stylesheet" href="/page.css">
</head>
<body>
<header>
<strong>pnp serve</strong>
{% for game in state.games %}<a href="#{{ game.slug }}" lang="{{ game.title_lang }}">{{ game.title }}</a>{% endfor %}
</header>
<main id="main" data-version="{{ state.version }}">
<p id="status" class="{{ 'busy' if state.activity }}">
{%- if state.activity == "starting" %}starting: the first build can take a minute…
{%- elif state.activity == "rebuilding" %}rebuilding after {{ state.changed | join(", ") or "start" }}…
{%- elif state.activity == "finishing" %}the first outputs are shown; building the rest…
{%- elif state.activity %}checking the rules and playing a sample game…
{%- elif state.finished %}updated {{ state.finished }} in {{ "%.1f" | format(state.seconds) }} s
{%- if state.changed %} after {{ state.changed | join(", ") }}{% endif %}; watching card_data/, templates/, fonts/
{%- endif %}</p>
{% if state.errors %}
<section id="errors" class="errors">
{% for error in state.errors %}<pre>{{ error }}</pre>{% endfor %}
{% if state.games %}<p>Below: the last good build.</p>{% endif %}
</section>
{% endif %}
{% for game in state.games %}
<section class="game" id="{{ game.slug }}">
<h1 lang="{{ game.title_lang }}">{{ game.title }} <small>{{ game.slug }}</small></h1>
<p><a class="balance-link" href="/balance/{{ game.slug }}">Balance: win rates, scores, game length</a></p>
{% for script in game.scripts %}
<section class="script" lang="{{ script.lang }}" id="{{ game.slug }}-{{ script.lang }}">
<h2>{{ game.slug }} · {{ script.lang }}</h2>
{% if script.pending %}<p class="note">faces: rebuilding…</p>{% endif %}
<div class="groups">
{% for group in script.groups %}
<div class="group">
<h3>{{ group.title }}</h3>
<div class="faces">
{% for face in group.faces %}<figure><a href="/files/{{ face.path }}?v={{ face.stamp }}" target="_blank">
<img class="face" src="/files/{{ face.path }}?v={{ face.stamp }}" alt="{{ face.label }}"
 data-face="{{ face.path }}"></a>
<figcaption>{{ face.label }}</figcaption></figure>{% endfor %}
</div>
</div>
{% endfor %}
</div>
{% for document in script.documents %}
{% if document.pending %}<h3>{{ document.title }} <small>rebuilding…</small></h3>
{% else %}
<h3>{{ document.title }} <small><a href="/files/{{ document.path }}?v={{ document.stamp }}" target="_blank">
{{- document.path.rsplit("/", 1)[-1] }}</a>, {{ document.pages | length }} pages</small></h3>
<div class="pages">
{% for page in document.pages %}
<a href="/files/{{ document.path }}?v={{ document.stamp }}#page={{ loop.index }}" target="_blank">
<img class="{{ 'sheet' if document.title == 'Sheets' else 'page' }}" src="/pages/{{ page }}"
 alt="{{ document.title }} page {{ loop.index }}"></a>
{% endfor %}
</div>
{% endif %}
{% endfor %}
</section>
{% endfor %}
<h2>pnp check</h2>
{% if game.check %}<pre class="check {{ '' if game.check.ok else 'bad' }}">{{ game.check.text }}</pre>
{% else %}<p class="note">not run yet</p>{% endif %}
<h2>Sample game</h2>
{% if game.sample_note %}<p class="note">{{ game.sample_note }}</p>{% endif %}
{% for lang, html in game.samples %}
<details class="sample" lang="{{ lang }}"{{ " open" if loop.first }}><summary>{{ lang }}</summary>
{{ html | safe }}</details>
{% endfor %}
{% if not game.samples and not game.sample_note %}<p class="note">not played yet</p>{% endif %}
</section>
{% endfor %}
</main>
<script src="/page.js"></script>
</body>
</html>
"""


# The page's style and script are files of their own, not inline: the Content-Security-Policy
# (pnp.serve.server) lets the page run and style only what the preview itself serves, so a
# narration that smuggled markup in could not run or style anything either.
STYLE = """header { position: sticky; top: 0; z-index: 1; background: #2d2a26; color: #eee; padding: .5em 1em;
         display: flex; gap: 1.5em; align-items: baseline; flex-wrap: wrap; }
header a { color: #f0c36d; }
#status.busy::before { content: "⟳ "; }
main { padding: 0 1em 3em; }
.errors { background: #fde8e6; border: 2px solid #c0392b; border-radius: 6px; padding: .5em 1em; margin: 1em 0; }
.errors pre { white-space: pre-wrap; margin: .5em 0; }
.game { background: #fff; border-radius: 6px; padding: .5em 1em 1em; margin: 1em 0; }
h1 small, h3 small { font-weight: normal; color: #777; font-size: 60%; }
.faces, .pages { display: flex; flex-wrap: wrap; gap: .6em; align-items: flex-end; }
figure { margin: 0; text-align: center; font-size: 80%; color: #555; }
.groups { display: flex; flex-wrap: wrap; gap: 0 2em; }
.group h3 { margin: .8em 0 .4em; font-size: 100%; }
img.face { height: 130px; box-shadow: 0 1px 3px #0005; background: #fff; }
img.sheet { width: 150px; border: 1px solid #ccc; }
img.page { width: 190px; border: 1px solid #ccc; }
pre.check { padding: .5em; border-left: 4px solid #27ae60; background: #f3faf5; white-space: pre-wrap; }
pre.check.bad { border-color: #c0392b; background: #fdf3f2; }
.sample { max-width: 46em; line-height: 1.6; }
.note { color: #777; }
td.align-left, th.align-left { text-align: left; }
td.align-center, th.align-center { text-align: center; }
td.align-right, th.align-right { text-align: right; }
"""

SCRIPT = """(function () {
  const status = () => document.getElementById("status");
  async function follow() {
    let pause = 0;
    try {
      const shown = document.getElementById("main").dataset.version;
      const reply = await fetch("/version?after=" + shown, {cache: "no-store"});
      const latest = (await reply.json()).version;
      if (String(latest) !== shown) {
        const page = await fetch(location.pathname, {cache: "no-store"});
        const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
        document.getElementById("main").replaceWith(fresh.getElementById("main"));
      }
    } catch (error) {
      status().textContent = "pnp serve is not answering (stopped?); trying again…";
      pause = 2000;
    }
    setTimeout(follow, pause);
  }
  follow();
})();
"""


def page_style() -> str:
    """/page.css: the workspace's fonts by family, then the page's rules."""
    faces = [f'@font-face {{ font-family: "{family}"; font-weight: {weight}; src: url("/fonts/{file}"); }}\n'
             for family, weight, file in FONT_FILES]
    scripts = [f':lang({family.removeprefix("pnp-")}) {{ font-family: "{family}", system-ui, sans-serif; }}\n'
               for family, weight, _file in FONT_FILES if weight == 400]
    return "".join(faces) + BODY_RULE + "".join(scripts) + STYLE


@cache
def _template() -> jinja2.Template:
    environment = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True,
                                     undefined=jinja2.StrictUndefined)
    return environment.from_string(TEMPLATE)


def render_page(state: State) -> str:
    return _template().render(state=state)
