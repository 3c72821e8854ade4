// The JSON API over HTTP: the Django session authenticates, the csrftoken cookie goes in X-CSRFToken.
export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export class ApiError extends Error {
  constructor(status, body, headers = null) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}

export async function api(method, path, body) {
  return (await request(method, path, body)).data;
}

// The answer with its headers (Retry-After, for one), for a caller that follows them.
export async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin" };
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (cause) {
    throw new ApiError(0, { error: { message: "network" } });
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) throw new ApiError(response.status, data, response.headers);
  return { data, headers: response.headers };
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body === undefined ? {} : body);
