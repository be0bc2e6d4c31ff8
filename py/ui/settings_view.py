"""The Settings screen: the player's name and preferences, and the records kept aside."""

from __future__ import annotations

from boneyard.settings import ANIMATION_LABELS, ANIMATIONS, MAX_NAME, THEME_LABELS, THEMES, Settings

from .html import Markup, h
from .screens import button, field, frame, select


def settings_screen(settings: Settings, reduced_motion: bool, broken: list[str]) -> Markup:
    """Return the Settings screen."""
    motion_hint = "Your system asks for reduced motion." if reduced_motion else "Your system allows motion."
    rows = [
        field(
            "Player name",
            h(
                "input",
                {
                    "id": "set-name",
                    "type": "text",
                    "data_setting": "name",
                    "value": settings.name,
                    "maxlength": MAX_NAME,
                    "autocomplete": "nickname",
                },
            ),
            "Shown at the table and on the leaderboard.",
            "set-name",
        ),
        h(
            "div",
            {"class_": "field field-check"},
            h(
                "label",
                {"class_": "check"},
                h(
                    "input",
                    {
                        "id": "set-suggestions",
                        "type": "checkbox",
                        "data_setting": "suggestions",
                        "checked": settings.suggestions,
                    },
                ),
                h("span", {}, "Move suggestions"),
            ),
            h("p", {"class_": "hint"}, "Mark the tiles you can play."),
        ),
        field(
            "Theme",
            select(
                "set-theme", "", [(t, THEME_LABELS[t]) for t in THEMES], settings.theme, data_setting="theme"
            ),
            fid="set-theme",
        ),
        field(
            "Animations",
            select(
                "set-animations",
                "",
                [(a, ANIMATION_LABELS[a]) for a in ANIMATIONS],
                settings.animations,
                data_setting="animations",
            ),
            motion_hint,
            "set-animations",
        ),
    ]
    stored = []
    if broken:
        stored = [
            h("h2", {}, "Records kept aside"),
            h(
                "p",
                {"class_": "hint"},
                "These could not be read and were kept so nothing is lost. Delete them when you no longer need them.",
            ),
            h(
                "ul",
                {"class_": "broken-list"},
                [
                    h(
                        "li",
                        {},
                        h("code", {}, key),
                        " ",
                        button("Delete", "delete-broken", key, kind="ghost", aria_label=f"Delete {key}"),
                    )
                    for key in broken
                ],
            ),
        ]
    body = h(
        "form",
        {"class_": "settings", "aria_labelledby": "screen-title", "onsubmit": "return false"},
        rows,
        stored,
    )
    return frame("Settings", body, current="settings")
