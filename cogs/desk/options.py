"""The options of ``/mahjong score`` and ``/mahjong record`` as Discord shows them: their
descriptions and names in English and Chinese, and the fixed choices."""

from __future__ import annotations

from discord.app_commands import Choice, locale_str

from i18n import t

FLAG_OPTIONS = (
    "heaven",
    "earth",
    "last_tile",
    "touji",
    "ready_declared",
    "four_bao",
    "jiebao",
    "dealer",
)
WIN_CHOICES = [
    Choice(name=locale_str(t("commands.choice.self_draw", "en")), value="self"),
    Choice(name=locale_str(t("commands.choice.won_on_a_discard", "en")), value="discard"),
    Choice(name=locale_str(t("commands.choice.robbed_a_kong", "en")), value="rob_kong"),
]
HOW_CHOICES = [
    *WIN_CHOICES,
    Choice(name=locale_str(t("commands.choice.drawn_hand", "en")), value="draw"),
]
#: A seat seen from the winner (the discarder, the 叁包 feeder).
SEAT_CHOICES = [
    Choice(name=locale_str(t("commands.choice.next_player_after_the_winner", "en")), value="next"),
    Choice(name=locale_str(t("commands.choice.player_opposite", "en")), value="across"),
    Choice(
        name=locale_str(t("commands.choice.previous_player_before_the_winner", "en")), value="prev"
    ),
]

DESCRIBE_SCORE = {
    "hand": locale_str(
        "Finished hand, winning tile after +: 123m 456p 789s 11z [555s] +3m",
    ),
    "variant": locale_str("Variant (default: the server's)"),
    "win": locale_str("How it was won"),
    "bao": locale_str(
        t("commands.mahjong.score.param.bao.description", "en"),
    ),
    "flown": locale_str(t("commands.mahjong.score.param.flown.description", "en")),
    "kong_draws": locale_str(
        t("commands.mahjong.score.param.kong_draws.description", "en"),
    ),
    "flowers": locale_str(t("commands.mahjong.score.param.flowers.description", "en")),
    "options": locale_str("Rule options, e.g. scoring=xingchen discard_win=true"),
    "discarder": locale_str(
        "Who discarded the winning tile (or whose kong was robbed), seen from the winner",
    ),
    "feeder": locale_str(
        t("commands.mahjong.score.param.feeder.description", "en"),
    ),
    "others": locale_str(
        t("commands.mahjong.score.param.others.description", "en"),
    ),
    "streak": locale_str(
        t("commands.mahjong.score.param.streak.description", "en"),
    ),
    "jing": locale_str(t("commands.mahjong.score.param.jing.description", "en")),
    "heaven": locale_str(t("commands.mahjong.score.param.heaven.description", "en")),
    "earth": locale_str(t("commands.mahjong.score.param.earth.description", "en")),
    "last_tile": locale_str(t("commands.mahjong.score.param.last_tile.description", "en")),
    "touji": locale_str(t("commands.mahjong.score.param.touji.description", "en")),
    "ready_declared": locale_str(
        t("commands.mahjong.score.param.ready_declared.description", "en")
    ),
    "four_bao": locale_str(t("commands.mahjong.score.param.four_bao.description", "en")),
    "jiebao": locale_str(t("commands.mahjong.score.param.jiebao.description", "en")),
    "dealer": locale_str(t("commands.mahjong.score.param.dealer.description", "en")),
    "private": locale_str("Only you see the answer"),
}
RENAME_SCORE = {
    "hand": locale_str("hand"),
    "variant": locale_str("variant"),
    "win": locale_str("win"),
    "bao": locale_str("bao"),
    "flown": locale_str("flown"),
    "kong_draws": locale_str("kong_draws"),
    "flowers": locale_str("flowers"),
    "options": locale_str("options"),
    "discarder": locale_str("discarder"),
    "feeder": locale_str("feeder"),
    "others": locale_str("others"),
    "streak": locale_str("streak"),
    "jing": locale_str("jing"),
    "heaven": locale_str("heaven"),
    "earth": locale_str("earth"),
    "last_tile": locale_str("last_tile"),
    "touji": locale_str("touji"),
    "ready_declared": locale_str("ready_declared"),
    "four_bao": locale_str("four_bao"),
    "jiebao": locale_str("jiebao"),
    "dealer": locale_str("dealer"),
    "private": locale_str("private"),
}
DESCRIBE_RECORD = {
    "player1": locale_str("Player in seat 1"),
    "player2": locale_str("Player in seat 2 (next of seat 1)"),
    "player3": locale_str("Player in seat 3"),
    "player4": locale_str("Player in seat 4"),
    "winner": locale_str("Who won (leave empty for a drawn hand)"),
    "how": locale_str("How it was won"),
    "discarder": locale_str("Who discarded the winning tile / whose kong was robbed"),
    "hand": locale_str("The winning hand (scored by the bot)"),
    "points": locale_str("Or: the points one loser pays"),
    "variant": DESCRIBE_SCORE["variant"],
    "bao": DESCRIBE_SCORE["bao"],
    "jing": DESCRIBE_SCORE["jing"],
    "options": DESCRIBE_SCORE["options"],
    "flags": locale_str(
        t("commands.mahjong.record.param.flags.description", "en"),
    ),
    "flown": DESCRIBE_SCORE["flown"],
    "kong_draws": DESCRIBE_SCORE["kong_draws"],
    "flowers": DESCRIBE_SCORE["flowers"],
    "dealer": locale_str(t("commands.mahjong.record.param.dealer.description", "en")),
}
RENAME_RECORD = {
    "player1": locale_str("player1"),
    "player2": locale_str("player2"),
    "player3": locale_str("player3"),
    "player4": locale_str("player4"),
    "winner": locale_str("winner"),
    "how": locale_str("how"),
    "discarder": locale_str("discarder"),
    "hand": RENAME_SCORE["hand"],
    "points": locale_str("points"),
    "variant": RENAME_SCORE["variant"],
    "bao": RENAME_SCORE["bao"],
    "jing": RENAME_SCORE["jing"],
    "options": RENAME_SCORE["options"],
    "flags": locale_str("flags"),
    "flown": RENAME_SCORE["flown"],
    "kong_draws": RENAME_SCORE["kong_draws"],
    "flowers": RENAME_SCORE["flowers"],
    "dealer": locale_str("dealer"),
}
