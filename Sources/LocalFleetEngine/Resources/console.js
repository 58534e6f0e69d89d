// The local Fleet Engine's console: plain JavaScript, no dependency, served from the engine.
// It reads /console/api/ (see ConsoleRoutes.swift) and follows /console/api/events; what it
// shares with the token server's console is in kit.js.
import { $, ConsoleAPI, addressFilters, addressPager, addressQuery, changeAddressQuery, element, followViews, showError } from "./kit.js";

const SVG = "http://www.w3.org/2000/svg";
const api = new ConsoleAPI({ base: "/console/api/", storageKey: "fleet-console-key", header: "X-Console-Key" });
const apiJSON = (path) => api.json(path);

// ---- Overview -----------------------------------------------------------------------------

async function loadOverview() {
  const health = await fetch("/healthz").then((response) => response.ok ? "ok" : `${response.status}`, () => "not answering");
  $("#health").textContent = health;
  const overview = await apiJSON("overview");
  $("#provider").textContent = overview.provider;
  document.body.dataset.provider = overview.provider;
  showCounts(overview.counts);
  const doors = $("#doors");
  doors.replaceChildren(...overview.doors.map((door) => element("li", { "data-door": door.name }, `${door.name}: ${door.address}`)));
  const rows = overview.accounts.map((account) => element("tr", { "data-account": account.email },
    element("td", {}, account.email), element("td", {}, account.role), element("td", {}, account.keyIDs.join(", "))));
  $("#accounts tbody").replaceChildren(...rows);
}

function showCounts(counts) {
  for (const [name, value] of Object.entries(counts)) {
    const cell = document.querySelector(`[data-count="${name}"]`);
    if (cell) cell.textContent = value;
  }
}

function showRates(rates) {
  if (!rates) return;
  for (const [name, value] of Object.entries(rates)) {
    const cell = document.querySelector(`[data-rate="${name}"]`);
    if (cell) cell.textContent = value.toFixed(1);
  }
}

// ---- Map ----------------------------------------------------------------------------------

/** The map's projection: longitude as x, Mercator's stretched latitude as y, both in degrees. */
function project(lat, lng) {
  const clamped = Math.max(-85, Math.min(85, lat));
  return [lng, -(180 / Math.PI) * Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360))];
}

/** A map on an SVG element: marks by resource, fitted to what it shows. */
class FleetMap {
  constructor(svg, onSelect) {
    this.svg = svg;
    this.onSelect = onSelect;
    this.layer = document.createElementNS(SVG, "g");
    svg.append(this.layer);
    this.marks = new Map(); // "kind/id" -> [elements]
    this.bounds = null;
    svg.addEventListener("click", (event) => {
      const mark = event.target.closest("[data-kind]");
      if (!mark) return;
      for (const selected of svg.querySelectorAll(".selected")) selected.classList.remove("selected");
      for (const shape of this.marks.get(`${mark.dataset.kind}/${mark.dataset.id}`) ?? []) shape.classList.add("selected");
      this.onSelect(mark.dataset.kind, mark.dataset.id);
    });
  }

  /** Removes every mark. */
  clear() {
    this.layer.replaceChildren();
    this.marks.clear();
    this.bounds = null;
  }

  /** Draws `marks` (the API's). A resource whose marks keep their shapes has them changed in
   *  place, only the attributes that differ (for a vehicle that moved: its position), the
   *  cheapest change for the browser to draw; others are replaced, and removed ones dropped. */
  draw(marks) {
    const fragment = document.createDocumentFragment();
    let outside = false;
    // Half a screen pixel in map units: a move smaller than that is not drawn (yet).
    const [width, height] = [this.svg.clientWidth, this.svg.clientHeight];
    this.halfPixel = this.bounds && width && height ? 0.5 * Math.max(this.bounds.width / width, this.bounds.height / height) : 0;
    for (const mark of marks) {
      const key = `${mark.kind}/${mark.id}`;
      const old = this.marks.get(key) ?? [];
      const wanted = mark.removed ? [] : this.describe(mark);
      for (const shape of wanted) if (!this.contains(+shape.attributes["data-lat"], +shape.attributes["data-lng"])) outside = true;
      if (wanted.length && wanted.length === old.length && wanted.every((shape, i) => old[i].tagName === shape.tag)) {
        wanted.forEach((shape, i) => this.update(old[i], shape));
        continue;
      }
      for (const element of old) element.remove();
      this.marks.delete(key);
      const created = wanted.map((shape) => this.create(shape));
      fragment.append(...created);
      if (created.length) this.marks.set(key, created);
    }
    this.layer.append(fragment);
    if (outside || !this.bounds) this.fit();
  }

  /** The shapes that draw `mark`: tag, classes, attributes (position and test hooks among
   *  them) and tooltip. */
  describe(mark) {
    const shapes = [];
    const title = `${mark.kind} ${mark.id}${mark.state ? ` (${mark.state})` : ""}`;
    const point = ([lat, lng], tag, classes, hooks = {}) => {
      const attributes = { "data-kind": mark.kind, "data-id": mark.id, "data-lat": lat, "data-lng": lng, ...hooks };
      const geometry = this.geometry(tag, attributes);
      shapes.push({ tag, classes: `mark ${classes}`, attributes, geometry, at: project(lat, lng), title });
    };
    switch (mark.kind) {
      case "vehicle":
        // A dart along its heading when it reported one, else a dot.
        if (mark.position) point(mark.position, mark.heading == null ? "circle" : "path", `vehicle ${(mark.state ?? "").toLowerCase()}`,
          { "data-vehicle-id": mark.id, "data-state": mark.state ?? "", "data-heading": mark.heading ?? "" });
        break;
      case "deliveryVehicle":
        if (mark.position) point(mark.position, "circle", "delivery", { "data-vehicle-id": mark.id, "data-heading": mark.heading ?? "" });
        for (const stop of mark.stops ?? []) point(stop, "circle", "stop", { "data-stop-of": mark.id });
        break;
      case "trip":
        if (mark.pickup) point(mark.pickup, "rect", "trip pickup", { "data-trip-id": mark.id, "data-point": "pickup" });
        if (mark.dropoff) point(mark.dropoff, "rect", "trip dropoff", { "data-trip-id": mark.id, "data-point": "dropoff" });
        break;
      case "task":
        if (mark.planned) point(mark.planned, "circle", "task planned", { "data-task-id": mark.id, "data-point": "planned" });
        if (mark.outcome) point(mark.outcome, "circle", `task outcome ${(mark.result ?? "").toLowerCase()}`,
          { "data-task-id": mark.id, "data-point": "outcome" });
        break;
    }
    return shapes;
  }

  create(shape) {
    const element = document.createElementNS(SVG, shape.tag);
    element.setAttribute("class", shape.classes);
    for (const [name, value] of Object.entries({ ...shape.attributes, ...shape.geometry })) element.setAttribute(name, value);
    element.drawnAt = shape.at;
    const title = document.createElementNS(SVG, "title");
    title.textContent = shape.title;
    element.append(title);
    return element;
  }

  update(element, shape) {
    const classes = shape.classes + (element.classList.contains("selected") ? " selected" : "");
    if (element.getAttribute("class") !== classes) element.setAttribute("class", classes);
    const heading = element.getAttribute("data-heading");
    for (const [name, value] of Object.entries(shape.attributes)) {
      if (element.getAttribute(name) !== String(value)) element.setAttribute(name, value);
    }
    // The test hooks always say where it is; the drawing follows once it moved half a pixel.
    const [x, y] = element.drawnAt ?? [Infinity, Infinity];
    const moved = Math.abs(x - shape.at[0]) >= this.halfPixel || Math.abs(y - shape.at[1]) >= this.halfPixel;
    if (!moved && heading === element.getAttribute("data-heading")) return;
    for (const [name, value] of Object.entries(shape.geometry)) element.setAttribute(name, value);
    element.drawnAt = shape.at;
    if (element.firstChild.textContent !== shape.title) element.firstChild.textContent = shape.title;
  }

  contains(lat, lng) {
    if (!this.bounds) return false;
    const [x, y] = project(lat, lng);
    const b = this.bounds;
    return x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;
  }

  /** Fits the view to every mark, with a margin, and sizes the marks to it. */
  fit() {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const shapes of this.marks.values()) {
      for (const shape of shapes) {
        const [x, y] = project(+shape.dataset.lat, +shape.dataset.lng);
        minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
      }
    }
    if (minX === Infinity) return;
    const size = Math.max(maxX - minX, maxY - minY, 0.01);
    const margin = size * 0.08;
    this.bounds = { x: minX - margin, y: minY - margin, width: maxX - minX + 2 * margin || size, height: maxY - minY + 2 * margin || size };
    this.svg.setAttribute("viewBox", `${this.bounds.x} ${this.bounds.y} ${this.bounds.width} ${this.bounds.height}`);
    this.radius = Math.max(this.bounds.width, this.bounds.height) / 140;
    // Degrees of longitude to kilometres at the middle of the view.
    const middle = (minY + maxY) / 2;
    const latitude = (Math.atan(Math.exp((-middle * Math.PI) / 180)) * 360) / Math.PI - 90;
    const kilometres = this.bounds.width * 111.32 * Math.cos((latitude * Math.PI) / 180);
    $("#map-scale").textContent = `the map is ${kilometres < 10 ? kilometres.toFixed(2) : Math.round(kilometres)} km across`;
    for (const shapes of this.marks.values()) for (const shape of shapes) this.place(shape);
  }

  /** Where a shape of `tag` with these data attributes goes on the map, at its current size. */
  geometry(tag, data) {
    const [x, y] = project(+data["data-lat"], +data["data-lng"]);
    const r = this.radius ?? 0.001;
    switch (tag) {
      case "rect": return { x: x - r, y: y - r, width: 2 * r, height: 2 * r };
      // A dart pointing north, turned to the heading (degrees clockwise from north).
      case "path": return { d: `M ${x} ${y - 1.6 * r} L ${x + r} ${y + r} L ${x} ${y + 0.4 * r} L ${x - r} ${y + r} Z`, transform: `rotate(${data["data-heading"]} ${x} ${y})` };
      default: return { cx: x, cy: y, r: data["data-stop-of"] ? r / 2 : r };
    }
  }

  place(element) {
    const data = {};
    for (const name of element.getAttributeNames()) if (name.startsWith("data-")) data[name] = element.getAttribute(name);
    for (const [name, value] of Object.entries(this.geometry(element.tagName, data))) element.setAttribute(name, value);
    element.drawnAt = project(+data["data-lat"], +data["data-lng"]);
  }
}

const fleetMap = new FleetMap($("#fleet-map"), inspect);

async function loadMarks() {
  const started = performance.now();
  const { marks } = await apiJSON("marks");
  fleetMap.clear();
  fleetMap.draw(marks);
  // What the browser benchmark reads: how long the first drawing of the whole fleet took.
  window.consoleTimings = { mapDrawMilliseconds: performance.now() - started, marks: marks.length };
}

async function inspect(kind, id) {
  try {
    const resource = await apiJSON(`resources/${kind}/${encodeURIComponent(id)}`);
    $("#inspector-title").textContent = `${kind} ${id}`;
    $("#inspector").textContent = JSON.stringify(resource, null, 2);
    const replay = $("#replay-this");
    replay.hidden = kind !== "vehicle" && kind !== "deliveryVehicle";
    replay.onclick = () => {
      const form = $("#replay-form");
      form.elements.vehicle.value = id;
      form.elements.kind.value = kind;
      location.hash = "#replay";
      form.requestSubmit();
    };
  } catch (error) {
    showError(error);
  }
}

// ---- Resources ----------------------------------------------------------------------------

/** The resources table's kind, page start and size, from the address. */
function resourceQuery() {
  const address = new URLSearchParams(location.search);
  return { kind: address.get("kind") || "vehicle", after: address.get("after") || "", size: Number(address.get("size")) || 50 };
}

async function loadResources() {
  const { kind, after, size } = resourceQuery();
  $("#resource-kind").elements.kind.value = kind;
  const query = new URLSearchParams({ kind, limit: String(size) });
  if (after) query.set("after", after);
  const { marks } = await apiJSON(`marks?${query}`);
  const where = (point) => (point ? `${point[0].toFixed(5)}, ${point[1].toFixed(5)}` : "–");
  const rows = marks.map((mark) => element("tr", { "data-resource": mark.id, "data-kind": mark.kind },
    element("td", {}, mark.id), element("td", {}, mark.state ?? mark.result ?? "–"), element("td", {}, mark.vehicle ?? "–"),
    element("td", {}, where(mark.position ?? mark.pickup ?? mark.planned))));
  $("#resource-table tbody").replaceChildren(...rows);
  const next = $("#resources-next");
  next.disabled = marks.length < size;
  next.dataset.after = marks.at(-1)?.id ?? "";
}

/** Puts `changes` (kind or page) in the address, keeping the rest, and reloads the table. */
function changeResourceQuery(changes) {
  changeAddressQuery(changes);
  loadResources().catch(showError);
}

$("#resource-kind").addEventListener("change", (event) => changeResourceQuery({ kind: event.target.value, after: "" }));
$("#resources-next").addEventListener("click", (event) => changeResourceQuery({ after: event.target.dataset.after }));
$("#resources-first").addEventListener("click", () => changeResourceQuery({ after: "" }));
$("#resource-table tbody").addEventListener("click", async (event) => {
  const row = event.target.closest("tr[data-resource]");
  if (!row) return;
  try {
    const resource = await apiJSON(`resources/${row.dataset.kind}/${encodeURIComponent(row.dataset.resource)}`);
    $("#resource-json").textContent = JSON.stringify(resource, null, 2);
  } catch (error) {
    showError(error);
  }
});

// ---- Requests -----------------------------------------------------------------------------

const FILTERS = ["method", "status", "role", "resource"];

/** The table's filters and page, from the address. */
const requestQuery = () => addressQuery([...FILTERS, "before"]);

async function loadRequests() {
  const query = requestQuery();
  requestFilters.show();
  const page = await apiJSON(`requests?${query}`);
  const rows = page.requests.map((call) => {
    let verdict = call.status === "OK" ? "allowed" : `${call.httpStatus} ${call.status}: ${call.rule ?? ""}`;
    // A fault a test injected (/emulator/v1/faults) either refused the call (its rule says so) or
    // only delayed it, and the engine then answered as it would have.
    const refusedByFault = (call.rule ?? "").startsWith(`injected fault ${call.injectedFault}:`);
    if (call.injectedFault && !refusedByFault) verdict = `after injected fault ${call.injectedFault}'s delay: ${verdict}`;
    const claims = Object.entries(call.claims ?? {}).map(([name, value]) =>
      name === "exp" ? `exp ${new Date(value * 1000).toLocaleTimeString()}` : `${name}=${value}`).join(" ");
    return element("tr", {
      "data-request": call.sequence, "data-method": call.method, "data-status": call.status,
      "data-role": call.role ?? "", "data-rule": call.rule ?? "", "data-injected-fault": call.injectedFault ?? "",
      class: [call.status === "OK" ? "allowed" : "refused", call.injectedFault ? "injected" : ""].join(" ").trim(),
    },
    element("td", {}, new Date(call.time).toLocaleTimeString()), element("td", {}, call.door), element("td", {}, call.method),
    element("td", {}, call.resource), element("td", {}, call.signer ?? "–"), element("td", {}, call.role ?? "–"),
    element("td", {}, claims || "–"), element("td", { class: "verdict" }, verdict),
    element("td", {}, `${(call.latencyMicroseconds / 1000).toFixed(1)} ms`));
  });
  $("#request-table tbody").replaceChildren(...rows);
  // The newest call this table knows of: a stream that opens later says whether it missed any.
  if (!query.get("before")) shownLatest = page.totals.calls;
  $("#request-totals").textContent = `${page.totals.calls} calls since start, ${page.totals.refused} refused`;
  requestPager.pageShown(page.requests.at(-1)?.sequence);
}

const reloadRequests = () => loadRequests().catch(showError);
const requestFilters = addressFilters($("#filters"), FILTERS, "before", reloadRequests);
const requestPager = addressPager({ older: $("#older"), newest: $("#newer"), cursor: "before", reload: reloadRequests });

let requestReload = null;
let shownLatest = 0;
/** A new call: the newest page reloads, at most twice a second. */
function requestsChanged() {
  if (requestQuery().get("before") || requestReload) return;
  requestReload = setTimeout(() => { requestReload = null; loadRequests().catch(showError); }, 500);
}

// ---- Replay -------------------------------------------------------------------------------

$("#replay-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const to = Date.now() / 1000, from = to - Number(form.elements.minutes.value) * 60;
  try {
    const trail = await apiJSON(`trail/${form.elements.kind.value}/${encodeURIComponent(form.elements.vehicle.value)}?from=${from}&to=${to + 60}`);
    drawReplay(trail);
    showError(null);
  } catch (error) {
    showError(error);
  }
});

function drawReplay(trail) {
  const svg = $("#replay-map");
  svg.replaceChildren();
  const list = $("#replay-marks");
  list.replaceChildren();
  const slider = $("#replay-slider");
  slider.disabled = trail.points.length === 0;
  if (trail.points.length === 0) {
    list.append(element("li", {}, "no positions in this range"));
    return;
  }
  const xy = trail.points.map(([lat, lng]) => project(lat, lng));
  const xs = xy.map((p) => p[0]), ys = xy.map((p) => p[1]);
  const size = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 0.002);
  const margin = size * 0.1;
  svg.setAttribute("viewBox", `${Math.min(...xs) - margin} ${Math.min(...ys) - margin} ${size + 2 * margin} ${size + 2 * margin}`);
  const r = size / 150;
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("class", "path");
  line.setAttribute("points", xy.map((p) => p.join(",")).join(" "));
  line.setAttribute("stroke-width", r / 2);
  svg.append(line);
  const at = (time) => xy[trail.points.findIndex((p) => p[2] >= time)] ?? xy.at(-1);
  const segment = (kind, from, to, attributes) => {
    const [x1, y1] = at(from), [x2, y2] = at(to);
    const shape = document.createElementNS(SVG, "line");
    shape.setAttribute("class", kind);
    for (const [name, value] of Object.entries({ x1, y1, x2, y2, "stroke-width": r, ...attributes })) shape.setAttribute(name, value);
    svg.append(shape);
  };
  const time = (seconds) => new Date(seconds * 1000).toLocaleTimeString();
  for (const gap of trail.gaps) {
    segment("gap", gap.from, gap.to, { "data-gap-from": gap.from, "data-gap-to": gap.to });
    list.append(element("li", { "data-mark": "gap" }, `gap: no update for ${Math.round(gap.seconds)} s after ${time(gap.from)}`));
  }
  for (const jump of trail.jumps) {
    segment("jump", jump.from, jump.to, { "data-jump-from": jump.from });
    const speed = jump.kilometersPerHour == null ? "no time passed" : `${Math.round(jump.kilometersPerHour)} km/h`;
    list.append(element("li", { "data-mark": "jump" }, `speed jump: ${Math.round(jump.meters)} m at ${speed}, ${time(jump.from)}`));
  }
  for (const dwell of trail.dwells) {
    const [x, y] = project(dwell.latitude, dwell.longitude);
    const shape = document.createElementNS(SVG, "circle");
    shape.setAttribute("class", "dwell");
    for (const [name, value] of Object.entries({ cx: x, cy: y, r: 2 * r, "data-dwell-from": dwell.from })) shape.setAttribute(name, value);
    svg.append(shape);
    list.append(element("li", { "data-mark": "dwell" }, `dwell: ${Math.round(dwell.seconds)} s from ${time(dwell.from)}`));
  }
  const marker = document.createElementNS(SVG, "circle");
  marker.id = "replay-marker";
  marker.setAttribute("r", 1.5 * r);
  svg.append(marker);
  slider.max = trail.points.length - 1;
  slider.value = trail.points.length - 1;
  const move = () => {
    const [lat, lng, seconds] = trail.points[slider.value];
    const [x, y] = xy[slider.value];
    marker.setAttribute("cx", x);
    marker.setAttribute("cy", y);
    marker.dataset.lat = lat;
    marker.dataset.lng = lng;
    $("#replay-time").textContent = `${time(seconds)} (${Number(slider.value) + 1} of ${trail.points.length})`;
  };
  slider.oninput = move;
  move();
}

// ---- Export and import --------------------------------------------------------------------

$("#export").addEventListener("click", async () => {
  try {
    const blob = await (await api.fetch("export")).blob();
    const link = element("a", { download: `fleet-engine-${document.body.dataset.provider ?? "export"}.json` });
    link.href = URL.createObjectURL(blob);
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (error) {
    showError(error);
  }
});

$("#import-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const counts = await (await api.fetch("import", { method: "POST", headers: { "Content-Type": "application/json" }, body: await file.text() })).json();
    $("#data-result").textContent = `imported ${counts.vehicles} vehicles, ${counts.trips} trips, ${counts.deliveryVehicles} delivery vehicles, ${counts.tasks} tasks`;
    showCounts(counts);
    await loadMarks();
  } catch (error) {
    $("#data-result").textContent = String(error.message ?? error);
  }
  event.target.value = "";
});

// ---- The live stream ----------------------------------------------------------------------

function handleEvent(name, payload) {
  switch (name) {
    case "marks": fleetMap.draw(payload.marks); break;
    case "stats":
      showCounts(payload.counts);
      showRates(payload.perSecond);
      // Calls made between the table's loading and the stream's opening are announced by no
      // `requests` event: the totals tell.
      if (payload.totals.calls > shownLatest) requestsChanged();
      break;
    case "requests": requestsChanged(); break;
  }
}

// ---- Start --------------------------------------------------------------------------------

async function start() {
  try {
    const { keyRequired } = await (await fetch("/console/api/access")).json();
    if (keyRequired && !api.key) {
      api.askForKey("");
      return;
    }
    await new Promise((resolve, reject) => {
      api.follow("events", {
        // Back after a break, what changed meanwhile is loaded again.
        opened: (again) => again
          ? Promise.all([loadMarks(), loadRequests()]).catch(showError)
          : Promise.all([loadOverview(), loadMarks(), loadResources(), loadRequests()]).then(resolve, reject),
        handle: handleEvent,
      });
    });
    showError(null);
    document.body.dataset.ready = "true";
  } catch (error) {
    showError(error);
  }
}

api.whenKeyGiven(start);
followViews("overview");
start();
