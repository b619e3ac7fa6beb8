"""Who is at the page: Discord's OAuth2 code exchange and the user an access token belongs to.

The page's SDK asks Discord for a code (`authorize`, scope `identify`); the server alone holds
the application's client secret, so it exchanges the code for an access token
(`POST /oauth2/token`), hands the token back for the SDK's `authenticate`, and reads whose it
is (`GET /users/@me`) when the page's live connection says hello: that connection is bound to
the user Discord names, whatever the page claims.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp

from bot.engine.errors import RummyError
from bot.i18n import N_

SIGN_IN_FAILED = N_("Sign-in failed: open the table again.")
MAX_CODE = 256  # Discord's codes and tokens are some tens of characters


class SignInRefusedError(RummyError):
    """Discord did not accept the code or the token: the page must sign in again."""


@dataclass(frozen=True, slots=True)
class Person:
    """The user an access token belongs to, and the language their Discord app speaks."""

    user_id: int
    name: str
    locale: str | None


class DiscordOAuth:
    """Asks Discord's API at `api_base` (`https://discord.com/api/v10`, or the tests' double)."""

    def __init__(self, api_base: str, client_id: int, client_secret: str) -> None:
        self.api_base = api_base.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        return self._session

    async def exchange(self, code: str) -> str:
        """The access token for the code the page's `authorize` got."""
        if not code or len(code) > MAX_CODE:
            raise SignInRefusedError(SIGN_IN_FAILED)
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with self._http().post(f"{self.api_base}/oauth2/token", data=form) as answer:
            body = await answer.json(content_type=None) if answer.status == 200 else None
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str):
            raise SignInRefusedError(SIGN_IN_FAILED)
        return token

    async def person(self, access_token: str) -> Person:
        """Whose the token is, as Discord says."""
        if not access_token or len(access_token) > MAX_CODE:
            raise SignInRefusedError(SIGN_IN_FAILED)
        headers = {"Authorization": f"Bearer {access_token}"}
        async with self._http().get(f"{self.api_base}/users/@me", headers=headers) as answer:
            body = await answer.json(content_type=None) if answer.status == 200 else None
        user_id = body.get("id") if isinstance(body, dict) else None
        if not isinstance(body, dict) or not isinstance(user_id, str) or not user_id.isdigit():
            raise SignInRefusedError(SIGN_IN_FAILED)
        name = body.get("global_name") or body.get("username") or user_id
        locale = body.get("locale")
        return Person(int(user_id), str(name), locale if isinstance(locale, str) else None)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
