/** The WebSocket address of the server that served this page, with the page's token when it has one. */
export function socketUrlOf(location: Location): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const token = new URLSearchParams(location.search).get("token");
  return `${scheme}//${location.host}/${token === null ? "" : `?token=${encodeURIComponent(token)}`}`;
}
