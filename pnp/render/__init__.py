"""The only code that draws with reportlab: component sheets and rulebooks."""
