"""The table as a Discord Activity: a third front end beside Discord's messages and the
terminal, for a web page that runs inside Discord (`web/`). Thin, like the others: a page's
input becomes the service's typed commands, and the service's frozen views become JSON
(`bot.activity.wire`); the server (`bot.activity.server`) signs people in through Discord
(`bot.activity.oauth`) and keeps each page's live connection current."""

from bot.activity.oauth import DiscordOAuth, Person, SignInRefusedError
from bot.activity.server import ActivityServer, ViewCheck

__all__ = ["ActivityServer", "DiscordOAuth", "Person", "SignInRefusedError", "ViewCheck"]
