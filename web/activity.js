// The Discord Activity's sign-in, bundled with Discord's Embedded App SDK into
// dist/activity.js (`npm ci && npm run build`). Inside Discord's frame it asks Discord who
// is playing (an OAuth2 code, scope "identify"), has the server exchange the code
// (POST /board/session: the secret stays on the server), authenticates the SDK with the
// access token, then hands the Activity's channel and the player's key (none for someone
// who only watches) to the board's script (board.js) as a "damas:session" event. Every
// URL is relative to the Activity's origin: Discord's proxy takes it to the server.
import { DiscordSDK } from "@discord/embedded-app-sdk";

const page = document.getElementById("page");

function say(text) {
  document.getElementById("message").textContent = text || "";
}

async function signIn() {
  // Discord opens an Activity with these in its URL; without them this is no Activity.
  if (!new URLSearchParams(location.search).has("frame_id")) {
    say(page.dataset.outside);
    return;
  }
  const clientId = page.dataset.clientId;
  const sdk = new DiscordSDK(clientId);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch("/board/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, channel: sdk.channelId }),
  });
  const body = await response.json();
  if (!response.ok) {
    say(body.message);
    return;
  }
  await sdk.commands.authenticate({ access_token: body.access_token });
  document.dispatchEvent(
    new CustomEvent("damas:session", { detail: { channel: sdk.channelId, key: body.key || "" } }),
  );
}

signIn().catch(() => say(page.dataset.failed));
