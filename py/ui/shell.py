"""The shell's screens as HTML: home, how to play, setup, and the frame around them
(Settings is in ``ui.settings_view``, Stats in ``ui.stats_view``).

Pure Python: each function takes plain data and returns Markup, so the tests render every screen under
CPython. The app (``ui.app``) puts the text into the page and routes clicks by ``data-action``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from boneyard.core import GameInfo
from boneyard.settings import MAX_NAME, Settings

from .art import card_art, logo
from .html import Markup, h, join, name_text
from .table_screen import Screen

LEVEL_LABELS = {
    "random": "Random",
    "easy": "Easy",
    "medium": "Medium",
    "hard": "Hard",
    "expert": "Expert",
}


def button(
    label: Any, action: str, value: str = "", *, kind: str = "", disabled: bool = False, **props: Any
) -> Markup:
    """Return a button that the app routes by ``data-action``."""
    cls = "btn" + (f" btn-{kind}" if kind else "") + (f" {props.pop('class_')}" if "class_" in props else "")
    return h(
        "button",
        {
            "type": "button",
            "class_": cls,
            "data_action": action,
            "data_value": value or None,
            "disabled": disabled,
            **props,
        },
        label,
    )


def link_button(label: Any, href: str, *, kind: str = "", **props: Any) -> Markup:
    """Return a link styled as a button (navigation between screens)."""
    cls = "btn" + (f" btn-{kind}" if kind else "")
    return h("a", {"class_": cls, "href": href, **props}, label)


def frame(title: str, body: Markup, *, current: str = "", back: str | None = None) -> Markup:
    """Return a screen inside the app's header and main landmark."""
    nav_items = [
        ("#/", "Games", "home"),
        ("#/stats", "Stats", "stats"),
        ("#/settings", "Settings", "settings"),
    ]
    nav = h(
        "nav",
        {"class_": "topnav", "aria_label": "Main"},
        [
            h(
                "a",
                {"href": href, "class_": "navlink", "aria_current": "page" if key == current else None},
                label,
            )
            for href, label, key in nav_items
        ],
    )
    back_link = (
        h(
            "a",
            {"class_": "back", "href": back, "aria_label": "Back"},
            "‹",
            h("span", {"class_": "back-word"}, "Back"),
        )
        if back
        else ""
    )
    header = h(
        "header",
        {"class_": "topbar"},
        h(
            "a",
            {"class_": "brand", "href": "#/", "aria_label": "Boneyard, home"},
            h("span", {"class_": "brand-mark"}, logo(30)),
            "Boneyard",
        ),
        nav,
    )
    main = h(
        "main",
        {"id": "main", "class_": "screen", "tabindex": "-1"},
        h(
            "div",
            {"class_": "screen-head"},
            back_link,
            h("h1", {"class_": "screen-title", "id": "screen-title"}, title),
        ),
        body,
    )
    return join([header, main])


# -- home ---------------------------------------------------------------------------------------


def home(
    games: Iterable[GameInfo],
    saved: set[str],
    playable: set[str],
    settings: Settings,
    room: tuple[str, str] | None = None,
    daily_row: Markup | str = "",
) -> Markup:
    """Return the home screen: one card a game with its picture, Resume, New game and How to play.

    ``room`` is the online room this page is in (its address and words), offered first when there is one;
    ``daily_row`` the day's Daily of each game (``daily.home_daily``), before the games.

    Every card has one row of buttons (Resume and New game, or New game alone) and How to play as a link
    beside the game's name, so cards with and without a game to resume line up.
    """
    cards = []
    for info in games:
        players = (
            f"{info.min_players} player"
            if info.min_players == info.max_players == 1
            else f"{info.min_players}–{info.max_players} players"
        )
        actions = []
        if info.id in saved and info.id in playable:
            actions.append(
                link_button("Resume", f"#/play/{info.id}", kind="primary", aria_label=f"Resume {info.name}")
            )
        if info.id in playable:
            actions.append(
                link_button(
                    "New game",
                    f"#/setup/{info.id}",
                    kind="" if info.id in saved else "primary",
                    aria_label=f"New game of {info.name}",
                )
            )
        else:
            actions.append(h("span", {"class_": "soon"}, "Table coming soon"))
        cards.append(
            h(
                "li",
                {"class_": "game-card", "data_game": info.id},
                h("div", {"class_": f"game-art art-{info.id}"}, card_art(info.id)),
                h(
                    "div",
                    {"class_": "game-text"},
                    h(
                        "div",
                        {"class_": "game-title"},
                        h("h2", {}, info.name),
                        h(
                            "a",
                            {
                                "class_": "howto-link",
                                "href": f"#/rules/{info.id}",
                                "aria_label": f"How to play {info.name}",
                            },
                            "How to play",
                        ),
                    ),
                    h("p", {"class_": "tagline"}, info.tagline),
                    h(
                        "p",
                        {"class_": "meta"},
                        players,
                        " · real time, solo"
                        if info.realtime
                        else " · vs computer, on one device or online"  # the setup's three opponents
                        if info.bots
                        else "",
                    ),
                ),
                h("div", {"class_": "game-actions"}, actions),
            )
        )
    greeting = h(
        "p",
        {"class_": "lead"},
        "Welcome, ",
        name_text(settings.name),
        ". Pick a game. Everything runs in your browser, even offline.",
    )
    # Online play is offered before the games, where a player sees it without scrolling past four cards.
    online = (
        h(
            "p",
            {"class_": "home-online home-room"},
            link_button("Back to your room", room[0], kind="primary", id="home-room"),
            " ",
            room[1],
        )
        if room is not None
        else h(
            "p",
            {"class_": "home-online home-quick"},
            link_button("Quick match", "#/quick", id="home-quick"),
            " Play people you do not know, or ",
            h("a", {"href": "#/join", "id": "home-join"}, "join a room"),
            " with a friend's code.",
        )
    )
    # Hidden until the browser offers to install the page (js/ un-hides it and handles the action).
    install = h(
        "button",
        {"type": "button", "class_": "btn install-btn", "data_action": "install", "hidden": True},
        "Install Boneyard",
    )
    return frame(
        "Games",
        join(
            [
                h("div", {"class_": "home-head"}, greeting, install),
                daily_row,
                online,
                h("ul", {"class_": "game-list", "aria_label": "Games"}, cards),
            ]
        ),
        current="home",
    )


# -- how to play ----------------------------------------------------------------------------------


def rules(info: GameInfo, playable: bool) -> Markup:
    """Return a game's How to play view: the engine's rules text with diagrams drawn from the engine."""
    from .howto import howto_body  # each game's diagrams load with its rules, not at start-up

    play = link_button("Play", f"#/setup/{info.id}", kind="primary") if playable else ""
    body = h("article", {"class_": "rules howto"}, howto_body(info), h("p", {"class_": "actions"}, play))
    return frame(f"How to play {info.name}", body, back="#/")


# -- setup ----------------------------------------------------------------------------------------


def field(label: str, control: Markup, hint: str = "", fid: str = "") -> Markup:
    """Return a labelled form row."""
    return h(
        "div",
        {"class_": "field"},
        h("label", {"for": fid} if fid else {}, label),
        control,
        h("p", {"class_": "hint", "id": f"{fid}-hint"}, hint) if hint else "",
    )


def select(fid: str, name: str, options: list[tuple[str, str]], value: str, **props: Any) -> Markup:
    """Return a select bound to the form field ``name``."""
    return h(
        "select",
        {"id": fid, "data_field": name, **props},
        [h("option", {"value": v, "selected": v == value}, label) for v, label in options],
    )


def radio_group(name: str, legend: str, options: list[tuple[str, str]], value: str) -> Markup:
    """Return a fieldset of radio buttons bound to the form field ``name``."""
    return h(
        "fieldset",
        {"class_": "radios"},
        h("legend", {}, legend),
        [
            h(
                "label",
                {"class_": "radio"},
                h(
                    "input",
                    {"type": "radio", "name": name, "value": v, "checked": v == value, "data_field": name},
                ),
                h("span", {}, label),
            )
            for v, label in options
        ],
    )


def setup(
    info: GameInfo,
    form: dict[str, Any],
    custom: Markup,
    players: int,
    fixed_players: bool,
    mode_options: list[tuple[str, str]],
    levels: list[str],
    note: str = "",
    in_progress: str = "",
    online: bool = False,
    player_fields: Markup | str = "",
    own_seats: bool = False,
) -> Markup:
    """Return the setup screen, the same two parts for every game, then its buttons.

    Game: the mode with what it means, then the game's own options (``custom``). Players: solo, or the
    opponents, how many play, the game's own player choices (``player_fields``: Partners, starting
    player) and the seats: computer levels or names, unless the game draws its own seats (``own_seats``).
    Nothing contradicts: a solo mode offers no opponents, a mode for a set number of players says so.

    ``in_progress`` describes a saved game of this game that is not over ("Classic, 2 players"): the
    screen then says that a new game replaces it, and offers Resume first. ``online`` offers a third
    choice of opponents, friends online: the seats are then set in the room's lobby.
    """
    solo = info.max_players == 1 or (fixed_players and players == 1)
    vs = form.get("opponents", "computer")
    if vs == "online" and (not online or solo):
        vs = "computer"
    game: list[Any] = []
    if mode_options:
        game.append(
            field(
                "Mode",
                select("setup-mode", "mode", mode_options, form.get("mode", mode_options[0][0])),
                note,
                "setup-mode",
            )
        )
    else:
        game.append(h("p", {"class_": "hint setup-one-way"}, info.tagline))
    game.append(custom)
    who: list[Any] = []
    if solo:
        who.append(h("p", {"class_": "hint", "id": "setup-solo"}, "Solo: just you."))
    else:
        choices = [("computer", "vs Computer"), ("device", "Same device")]
        if online:
            choices.append(("online", "Online with friends"))
        who.append(radio_group("opponents", "Opponents", choices, vs))
        if fixed_players:
            who.append(h("p", {"class_": "hint"}, f"{players} players in this mode."))
        else:
            counts = [(str(n), f"{n} players") for n in range(max(2, info.min_players), info.max_players + 1)]
            who.append(
                field(
                    "Players", select("setup-players", "players", counts, str(players)), fid="setup-players"
                )
            )
        who.append(player_fields)
        if not own_seats and vs != "online":
            who.append(seat_rows(form, players, vs, levels))
    parts = [setup_part("setup-game", "Game", game), setup_part("setup-who", "Players", who)]
    if vs == "online":
        parts.append(
            h(
                "div",
                {"class_": "actions online-create"},
                h(
                    "p",
                    {"class_": "hint"},
                    "You host the game: your browser deals and runs it, your friends join with a code. "
                    "In the room you choose who plays each seat (a friend, or a bot at a level).",
                ),
                button("Create room", "create-room", info.id, kind="primary", id="create-room"),
                link_button("Join a friend's room", "#/join", id="setup-join"),
            )
        )
    elif in_progress:
        parts.append(
            h(
                "div",
                {"class_": "actions in-progress", "id": "setup-in-progress", "role": "note"},
                h(
                    "p",
                    {"class_": "hint"},
                    f"You have a game in progress ({in_progress}). A new game replaces it.",
                ),
                link_button("Resume", f"#/play/{info.id}", kind="primary", id="setup-resume"),
                button("Start a new game", "start-game", info.id, id="start-game"),
                daily_button(info),
            )
        )
    else:
        parts.append(
            h(
                "div",
                {"class_": "actions"},
                button("New game", "start-game", info.id, kind="primary", id="start-game"),
                daily_button(info),
            )
        )
    if online:  # strangers: quick match finds them (ui.online.quick)
        parts.append(
            h(
                "div",
                {"class_": "actions setup-quick"},
                link_button("Quick match", f"#/quick/{info.id}", id="quick-match"),
                h(
                    "p",
                    {"class_": "hint"},
                    "Play people you do not know, online; computers fill empty seats.",
                ),
            )
        )
    body = h(
        "form",
        {
            "class_": "setup",
            "data_form": "setup",
            "aria_labelledby": "screen-title",
            "onsubmit": "return false",
        },
        parts,
    )
    return frame(f"New game: {info.name}", body, back="#/")


def daily_button(info: GameInfo) -> Markup:
    """Return the setup's Daily button: today's deal of this game, the same for everyone."""
    return link_button(
        "Daily", f"#/daily/{info.id}", id="setup-daily", title="Today's deal, the same for everyone"
    )


def setup_screen(info: GameInfo, screen: Screen, form: dict[str, Any], in_progress: str = "") -> Markup:
    """Return a game's setup screen from its table screen's modes and fields and the form as chosen."""
    mode, players = screen.mode_from_form(form)
    return setup(
        info,
        form,
        screen.custom_fields(form),
        players,
        mode.players is not None,
        [(m.key, m.label) for m in screen.modes()],
        list(info.named_levels),
        mode.note,
        in_progress=in_progress,
        online=not info.realtime and info.max_players > 1,
        player_fields=screen.player_fields(form),
        own_seats=type(screen).seats_from_form is not Screen.seats_from_form,  # the game seats its players
    )


def setup_part(pid: str, title: str, content: list[Any]) -> Markup:
    """Return one part of the setup screen: a heading and its controls."""
    return h(
        "section",
        {"class_": "setup-part", "id": pid, "aria_labelledby": f"{pid}-title"},
        h("h2", {"class_": "setup-head", "id": f"{pid}-title"}, title),
        content,
    )


def seat_rows(form: dict[str, Any], players: int, vs: str, levels: list[str]) -> Markup:
    """Return the seats in playing order: you and each computer at its level, or each person's name."""
    rows = []
    for seat in range(players):
        label = h("label", {"class_": "seat-no", "for": f"setup-level-{seat}"}, f"Seat {seat + 1}")
        if vs == "computer" and seat == 0:
            control: Markup = h("span", {"class_": "seat-fixed"}, "You")
            label = h("span", {"class_": "seat-no"}, "Seat 1")
        elif vs == "computer":
            name = f"level_{seat}"
            current = form.get(name, form.get("level", "medium" if "medium" in levels else levels[-1]))
            options = [(lv, f"Computer {seat}, {LEVEL_LABELS.get(lv, lv.title()).lower()}") for lv in levels]
            control = select(f"setup-level-{seat}", name, options, current)
        else:
            name = f"name_{seat}"
            label = h("label", {"class_": "seat-no", "for": f"setup-name-{seat}"}, f"Seat {seat + 1}")
            control = h(
                "input",
                {
                    "id": f"setup-name-{seat}",
                    "type": "text",
                    "data_field": name,
                    "value": form.get(name, f"Player {seat + 1}"),
                    "maxlength": MAX_NAME,
                    "autocomplete": "off",
                    "aria_label": f"Seat {seat + 1}: name of the person playing",
                },
            )
        rows.append(h("div", {"class_": "seat-row"}, label, control))
    return h("fieldset", {"class_": "seats"}, h("legend", {}, "Seats (in playing order)"), rows)


def not_found(what: str) -> Markup:
    """Return a screen for an address that leads nowhere."""
    return frame(
        "Not found", h("p", {}, f"There is nothing at {what}. ", h("a", {"href": "#/"}, "Back to the games"))
    )
