// What both consoles share, the local Fleet Engine's and the token server's: calls that carry
// a key kept in the tab, the live stream, views and filters kept in the address, tables, pages.
// Plain JavaScript, no dependency; each console's own module imports it from ./kit.js.

export const $ = (selector) => document.querySelector(selector);

/** An element with attributes (`class` among them) and children (text or elements). */
export function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** Shows `error`'s message in #error, or clears it with `null`. */
export function showError(error) {
  $("#error").textContent = error ? String(error.message ?? error) : "";
}

/** The console was refused for want of its key (a 401): the page asks for it. */
export class KeyNeeded extends Error {}

/** The message of a Google-style JSON refusal, or `null`. */
async function refusal(response) {
  try { return (await response.json()).error?.message; } catch { return null; }
}

/** A console's API under `base`. The key is asked for in #key-form, kept in this tab's
 *  sessionStorage only (under `storageKey`), and sent in the `header` as `format(key)`. */
export class ConsoleAPI {
  constructor({ base, storageKey, header, format = (key) => key }) {
    Object.assign(this, { base, storageKey, header, format });
    /** The stream followed, by path: a new `follow` of a path ends the one before. */
    this.streams = new Map();
  }

  get key() { return sessionStorage.getItem(this.storageKey); }

  /** Fetches `path`; throws the refusal's message. A 401 forgets the key and asks for it. */
  async fetch(path, options = {}) {
    const headers = new Headers(options.headers ?? {});
    if (this.key) headers.set(this.header, this.format(this.key));
    const response = await fetch(`${this.base}${path}`, { ...options, headers });
    if (response.status === 401) {
      sessionStorage.removeItem(this.storageKey);
      this.askForKey((await refusal(response)) ?? "the console needs its key");
      throw new KeyNeeded("the console needs its key");
    }
    if (!response.ok) throw new Error((await refusal(response)) ?? `${response.status} ${response.statusText}`);
    return response;
  }

  /** `path`'s JSON answer (`null` for 204). */
  async json(path, options) {
    const response = await this.fetch(path, options);
    return response.status === 204 ? null : response.json();
  }

  /** Sends `body` (if any) as JSON with `method` to `path`; its JSON answer. */
  send(method, path, body) {
    const headers = body === undefined ? {} : { "Content-Type": "application/json" };
    return this.json(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  /** Shows #key-form with `message`. */
  askForKey(message) {
    $("#key-form").hidden = false;
    $("#key-error").textContent = message;
  }

  /** Keeps the key #key-form is given (and clears the box); then runs `start`. */
  whenKeyGiven(start) {
    $("#key-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = event.target.elements.key;
      sessionStorage.setItem(this.storageKey, input.value);
      input.value = "";
      event.target.hidden = true;
      start();
    });
  }

  /** Follows the server-sent events of `path` (read through fetch, so that the key can go in a
   *  header), and again a second after it ends, while no key is being asked for; following a
   *  path again ends the stream before. `opened` runs at the first event of each connection,
   *  with whether it is a reconnection: from then on every change reaches the page, so what the
   *  page loads then misses nothing. `handle` gets each event's name and data. #live says
   *  whether the stream is on. */
  async follow(path, { opened, handle }, reconnection = false) {
    this.streams.get(path)?.abort();
    const stream = new AbortController();
    this.streams.set(path, stream);
    const live = $("#live");
    try {
      const reader = (await this.fetch(path, { signal: stream.signal })).body.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = "", first = true;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
        let end;
        while ((end = buffered.indexOf("\n\n")) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (first) {
            first = false;
            live.textContent = "live";
            live.classList.add("on");
            await opened(reconnection);
          }
          handle(...parseEvent(block));
        }
      }
    } catch (error) {
      if (!(error instanceof KeyNeeded) && !stream.signal.aborted) showError(error);
    }
    if (stream.signal.aborted) return;
    live.textContent = "reconnecting…";
    live.classList.remove("on");
    if ($("#key-form").hidden) setTimeout(() => { if (!stream.signal.aborted) this.follow(path, { opened, handle }, true); }, 1000);
  }
}

/** An event block's name and its data parsed as JSON. */
function parseEvent(block) {
  let name = "message", data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) name = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  return [name, data ? JSON.parse(data) : null];
}

/** Shows the section whose data-view the address's #hash names (`first` without one), marks
 *  its link in the nav, and does so again whenever the hash changes; then tells `shown` (if
 *  given) which view it showed. */
export function followViews(first, shown = () => {}) {
  const show = () => {
    const view = location.hash.slice(1) || first;
    for (const section of document.querySelectorAll("main > section")) section.hidden = section.dataset.view !== view;
    for (const link of document.querySelectorAll("nav a")) link.classList.toggle("current", link.dataset.view === view);
    shown(view);
  };
  window.addEventListener("hashchange", show);
  show();
}

/** Wraps `load`, an async function that fetches and then shows, so that only the newest call
 *  shows: `load` gets a function that says whether a newer call began since (then it shows
 *  nothing). While one call runs, `whenIdle()` is false. */
export function newestOnly(load) {
  let calls = 0, running = 0;
  const wrapped = async (...args) => {
    const mine = ++calls;
    running++;
    try {
      return await load(() => mine !== calls, ...args);
    } finally {
      running--;
    }
  };
  wrapped.whenIdle = () => running === 0;
  return wrapped;
}

/** The address's query parameters among `names`, as a query to send on. */
export function addressQuery(names) {
  const address = new URLSearchParams(location.search);
  const query = new URLSearchParams();
  for (const name of names) if (address.get(name)) query.set(name, address.get(name));
  return query;
}

/** Sets each of `changes` in the address's query (an empty value removes it), keeping the rest
 *  and the view, so that a filter or a page survives a reload. */
export function changeAddressQuery(changes) {
  const address = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value) address.set(name, value); else address.delete(name);
  }
  history.replaceState(null, "", `${location.pathname}?${address}${location.hash}`);
}

/** A filter form whose boxes (`names`) are kept in the address: submitting it puts them there,
 *  back on the first page (`cursor` removed), and runs `reload`; `show()` puts the address's
 *  values back in the boxes, but not while someone is typing in them. */
export function addressFilters(form, names, cursor, reload) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const changes = { [cursor]: "" };
    for (const name of names) {
      const box = form.elements[name];
      changes[name] = box.type === "checkbox" ? (box.checked ? box.value : "") : box.value.trim();
    }
    changeAddressQuery(changes);
    reload();
  });
  return {
    show() {
      if (form.contains(document.activeElement)) return;
      const address = new URLSearchParams(location.search);
      for (const name of names) {
        const box = form.elements[name];
        if (box.type === "checkbox") box.checked = address.get(name) === box.value;
        else if (box.tagName === "SELECT" && !address.get(name)) box.selectedIndex = 0;
        else box.value = address.get(name) ?? "";
      }
    },
  };
}

/** Paging kept in the address under `cursor`: `older` goes to the page after the one shown
 *  (`pageShown(next)` says where it starts, or that none follows), `newest` back to the first.
 *  Each runs `reload`. */
export function addressPager({ older, newest, cursor, reload }) {
  older.addEventListener("click", () => { changeAddressQuery({ [cursor]: older.dataset.next }); reload(); });
  newest.addEventListener("click", () => { changeAddressQuery({ [cursor]: "" }); reload(); });
  return {
    pageShown(next) {
      older.disabled = !next;
      older.dataset.next = next ?? "";
    },
  };
}
