"""The look: the colour tones and palettes (light, dark, high contrast) and the icon set."""
