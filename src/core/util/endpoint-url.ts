/**
 * The URL of one route of an OpenAI-compatible API from the base URL a user types, shared by
 * chat generation ("/chat/completions") and embeddings ("/embeddings"). A bare origin gets
 * "/v1" + route; any other path is taken as the API's base (as the OpenAI SDKs' baseURL is:
 * ".../v1", ".../v1/", ".../v1beta/openai/") and gets the route; a URL that already ends in the
 * route is kept. The query is kept, the fragment dropped.
 */

/** A base URL that cannot be used; the message is the whole sentence shown to the user. */
export class EndpointUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointUrlError';
  }
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * `route` starts with "/" ("/embeddings"); `label` names the field in messages ("the base URL").
 * Throws EndpointUrlError for an empty, non-http(s) or credential-carrying URL.
 */
export function endpointUrl(baseUrl: string, route: string, label = 'the base URL'): string {
  const raw = baseUrl.trim();
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const shown = raw === '' ? `${label} is empty` : `"${clip(raw, 100)}" is not an http(s) URL`;
    throw new EndpointUrlError(`${shown}; it should look like http://localhost:11434 or https://api.openai.com/v1`);
  }
  // A key in the URL would be shown, logged and kept in history: it belongs in the key field.
  if (url.username !== '' || url.password !== '') throw new EndpointUrlError(`${label} contains a user name or password; remove it and put the key in the API key field`);
  url.hash = '';
  let path = url.pathname.replace(/\/+$/, '');
  if (path === '') path = `/v1${route}`;
  else if (!path.endsWith(route)) path += route;
  url.pathname = path;
  return url.toString();
}

/** The API base of a route's URL ("http://h:1234/v1/embeddings" → "http://h:1234/v1"), as SDKs take it. */
export function apiBaseOf(routeUrl: string, route: string): string {
  const url = new URL(routeUrl);
  url.search = '';
  url.pathname = url.pathname.endsWith(route) ? url.pathname.slice(0, -route.length) : url.pathname;
  return url.toString().replace(/\/+$/, '');
}
