"""Chinese text: script conversion, line breaking, setting and fitting, fonts, templates."""
