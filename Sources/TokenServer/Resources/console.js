// The token server's console: plain JavaScript, no dependency, served from the token server.
// It has no API of its own: every view reads, and every action changes, the admin API
// (/v1/admin/…, see AdminRoutes.swift) with the admin key, as the CLI and curl do; the live
// view follows /v1/admin/live. What it shares with the local Fleet Engine's console is in kit.js.
import {
  $, ConsoleAPI, addressFilters, addressPager, addressQuery, element, followViews, newestOnly, showError,
} from "./kit.js";

const api = new ConsoleAPI({
  base: "/v1/admin/", storageKey: "fleetauth-admin-key", header: "Authorization", format: (key) => `Bearer ${key}`,
});

/** Runs `action` (a change through the admin API), then `reload`; shows what went wrong. */
async function act(action, reload) {
  try {
    await action();
    showError(null);
  } catch (error) {
    showError(error);
  }
  await reload().catch(showError);
}

const time = (seconds) => (seconds == null ? "–" : new Date(seconds * 1000).toLocaleString());
const button = (label, attributes, onClick) => {
  const node = element("button", { type: "button", ...attributes }, label);
  node.addEventListener("click", onClick);
  return node;
};

// ---- Live figures -------------------------------------------------------------------------

/** The records written when the record view was last loaded: a new one reloads it. */
let shownRecordsWritten = null;

function showFigures(figures) {
  const set = (name, value) => { document.querySelector(`[data-figure="${name}"]`).textContent = value; };
  const sum = (rates) => Object.values(rates ?? {}).reduce((a, b) => a + b, 0);
  const rates = figures.perSecond;
  set("issuedPerSecond", rates ? sum(rates.issued).toFixed(1) : "–");
  set("refusedPerSecond", rates ? sum(rates.refused).toFixed(1) : "–");
  set("limitedPerSecond", rates ? rates.limited.toFixed(1) : "–");
  set("issued", figures.issued);
  set("refused", figures.refused);
  set("recordsWaiting", figures.recordsWaiting);
  const readiness = $("#readiness");
  readiness.textContent = figures.ready ? "ready" : "not ready";
  readiness.className = figures.ready ? "ready" : "unready";
  readiness.dataset.ready = String(figures.ready);
  $("#not-ready").textContent = figures.reasons.join("; ");
  if (rates) {
    rateRows("#issued-rates", "data-kind", rates.issued);
    rateRows("#refused-rates", "data-reason", rates.refused);
  }
  // A record written since the record view was loaded (a token handed out, a request refused):
  // its newest page loads again, while it is in view, live and no load of it runs.
  if (figures.recordsWritten !== shownRecordsWritten && recordInView() && recordIsLive() && loadRecord.whenIdle()) {
    shownRecordsWritten = figures.recordsWritten;
    loadRecord().catch(showError);
  }
  // A retiring key whose time came: the keys load again and show it retired.
  if (nextRetirement !== null && Date.now() / 1000 >= nextRetirement) {
    nextRetirement = null;
    loadKeys().catch(showError);
  }
}

// Whether the record view loads again as records are written: not on an older page, nor for an
// account's records alone, which the server finds by reading the record through (it keeps no
// index of accounts); "Newest" loads those again.
function recordIsLive() {
  const address = addressQuery(["pageToken", "account", "resource"]);
  return !address.get("pageToken") && !(address.get("account") && !address.get("resource"));
}

function rateRows(table, attribute, rates) {
  const rows = Object.entries(rates).sort(([a], [b]) => a.localeCompare(b)).map(([name, rate]) =>
    element("tr", { [attribute]: name }, element("td", {}, name), element("td", {}, rate.toFixed(1))));
  $(`${table} tbody`).replaceChildren(...rows);
}

// ---- Accounts -----------------------------------------------------------------------------

const loadAccounts = newestOnly(async (isStale) => {
  const query = addressQuery(["accountsPage"]);
  const page = await api.json(`accounts?${query.has("accountsPage") ? `pageToken=${encodeURIComponent(query.get("accountsPage"))}` : ""}`);
  if (isStale()) return;
  showRoles(page.roles);
  const rows = page.accounts.map((account) => element("tr", { "data-account": account.username, "data-role": account.role },
    element("td", {}, account.username), element("td", {}, account.role),
    element("td", {}, account.identity ? `${account.identity.subject} at ${account.identity.issuer}` : "–"),
    element("td", { "data-sessions": account.sessions }, String(account.sessions)),
    element("td", {}, account.assignments.map((a) => `${a.kind} ${a.resourceId}`).join(", ") || "–"),
    element("td", {},
      button("End sessions", { "data-action": "end-sessions" }, () =>
        act(() => api.send("DELETE", `accounts/${encodeURIComponent(account.username)}/sessions`), loadAccounts)),
      button("Delete", { "data-action": "delete" }, () => {
        if (confirm(`Delete ${account.username}, its sessions and its assignments?`)) {
          act(() => api.send("DELETE", `accounts/${encodeURIComponent(account.username)}`), () => Promise.all([loadAccounts(), loadAssignments()]));
        }
      }))));
  $("#account-table tbody").replaceChildren(...rows);
  accountPager.pageShown(page.nextPageToken);
});
const accountPager = addressPager({ older: $("#accounts-next"), newest: $("#accounts-first"), cursor: "accountsPage", reload: () => loadAccounts().catch(showError) });

/** The roles an account may have, as the server says them. */
function showRoles(roles) {
  const select = $("#create-account select[name=role]");
  if (select.options.length === roles.length) return;
  select.replaceChildren(...roles.map((role) => element("option", { value: role }, role)));
}

$("#create-account").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target.elements;
  const body = { username: form.username.value.trim(), role: form.role.value };
  if (form.password.value) body.password = form.password.value;
  if (form.issuer.value || form.subject.value) body.identity = { issuer: form.issuer.value.trim(), subject: form.subject.value.trim() };
  // The password leaves the page with the request, and nowhere else.
  form.password.value = "";
  act(async () => { await api.send("POST", "accounts", body); event.target.reset(); }, loadAccounts);
});

// ---- Assignments --------------------------------------------------------------------------

const ASSIGNMENT_FILTERS = ["kind", "resourceId", "username"];
let kinds = [];

const loadAssignments = newestOnly(async (isStale) => {
  assignmentFilters.show();
  const query = addressQuery(ASSIGNMENT_FILTERS);
  const cursor = addressQuery(["assignmentsPage"]).get("assignmentsPage");
  if (cursor) query.set("pageToken", cursor);
  const page = await api.json(`assignments?${query}`);
  if (isStale()) return;
  if (kinds.length === 0) showKinds(page.kinds);
  const rows = page.assignments.map((assignment) => element("tr", {
    "data-assignment": `${assignment.kind}/${assignment.resourceId}`, "data-resource": assignment.resourceId, "data-account": assignment.username,
  },
  element("td", {}, assignment.kind), element("td", {}, assignment.resourceId), element("td", {}, assignment.username),
  element("td", {}, button("Unassign", { "data-action": "unassign" }, () =>
    act(() => api.send("DELETE", assignment.path), () => Promise.all([loadAssignments(), loadAccounts()]))))));
  $("#assignment-table tbody").replaceChildren(...rows);
  assignmentPager.pageShown(page.nextPageToken);
});
const reloadAssignments = () => loadAssignments().catch(showError);
const assignmentFilters = addressFilters($("#assignment-filters"), ASSIGNMENT_FILTERS, "assignmentsPage", reloadAssignments);
const assignmentPager = addressPager({ older: $("#assignments-next"), newest: $("#assignments-first"), cursor: "assignmentsPage", reload: reloadAssignments });

/** The kinds of resource, and who may be assigned to each, as the server says them. */
function showKinds(list) {
  kinds = list;
  const options = () => list.map((kind) => element("option", { value: kind.kind }, `${kind.kind} (${kind.roles.join(" or ")})`));
  $("#assign select[name=kind]").replaceChildren(...options());
  const filter = $("#assignment-filters select[name=kind]");
  filter.replaceChildren(filter.options[0], ...options());
  assignmentFilters.show();
}

$("#assign").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target.elements;
  const kind = kinds.find((each) => each.kind === form.kind.value);
  if (!kind) return showError("the kinds of resource have not loaded yet");
  const path = kind.template.replace("{id}", encodeURIComponent(form.resourceId.value.trim()));
  act(async () => { await api.send("PUT", path, { username: form.username.value.trim() }); event.target.reset(); },
    () => Promise.all([loadAssignments(), loadAccounts()]));
});

// ---- Keys ---------------------------------------------------------------------------------

/** The API's key states as the console names them: a replaced key is retiring until it retires. */
const KEY_STATES = { signing: "signing", published: "retiring", retired: "retired" };
/** When the first of the retiring keys shown retires (epoch seconds), or `null`. */
let nextRetirement = null;

async function loadKeys() {
  const { keys } = await api.json("keys");
  const rows = keys.map((key) => element("tr", { "data-key-id": key.kid, "data-role": key.role, "data-state": KEY_STATES[key.state] ?? key.state },
    element("td", {}, key.role), element("td", {}, key.kid), element("td", {}, KEY_STATES[key.state] ?? key.state),
    element("td", {}, key.account), element("td", {}, time(key.addedAt)),
    element("td", {}, key.state === "signing" ? "–" : time(key.retiredAt ?? key.retiresAt))));
  $("#key-table tbody").replaceChildren(...rows);
  const retirements = keys.filter((key) => key.state === "published" && key.retiresAt != null).map((key) => key.retiresAt);
  nextRetirement = retirements.length ? Math.min(...retirements) : null;
  const roles = [...new Set(keys.map((key) => key.role))].sort();
  $("#rotations").replaceChildren("Rotate: ", ...roles.map((role) => button(role, { "data-rotate": role }, () => {
    if (confirm(`Make a new ${role} key and sign with it from now?`)) act(() => api.send("POST", `keys/${role}:rotate`), loadKeys);
  })));
}

// ---- The record ---------------------------------------------------------------------------

const RECORD_FILTERS = ["resourceKind", "resource", "account", "outcome", "since", "valid"];
const recordInView = () => !document.querySelector("section[data-view=record]").hidden;

const loadRecord = newestOnly(async (isStale) => {
  recordFilters.show();
  const address = addressQuery([...RECORD_FILTERS, "pageToken"]);
  // Fifty rows a page: the newest page is read again as records are written, so a page that
  // stays open while tokens flow costs the server (and the browser) in proportion.
  const query = new URLSearchParams({ pageSize: "50" });
  for (const name of ["account", "outcome", "since", "valid", "pageToken"]) if (address.get(name)) query.set(name, address.get(name));
  if (address.get("resource")) query.set(address.get("resourceKind") ?? "vehicle", address.get("resource"));
  const page = await api.json(`issued-tokens?${query}`);
  if (isStale()) return;
  const rows = page.issuedTokens.map((entry) => element("tr", {
    "data-issued-token": entry.id, "data-kid": entry.kid ?? "", "data-outcome": entry.outcome, "data-expires-at": entry.expiresAt ?? "",
    class: entry.outcome === "issued" ? "allowed" : "refused",
  },
  element("td", {}, time(entry.recordedAt)), element("td", { class: "verdict" }, entry.reason ? `${entry.outcome}: ${entry.reason}` : entry.outcome),
  element("td", {}, entry.account), element("td", {}, entry.kind),
  element("td", {}, entry.vehicleId ?? entry.tripId ?? entry.deliveryVehicleId ?? entry.trackingId ?? "–"),
  element("td", {}, entry.kid ?? "–"), element("td", {}, time(entry.expiresAt)), element("td", {}, entry.clientAddress ?? "–")));
  $("#record-table tbody").replaceChildren(...rows);
  recordPager.pageShown(page.nextPageToken);
});
const reloadRecord = () => loadRecord().catch(showError);
const recordFilters = addressFilters($("#record-filters"), RECORD_FILTERS, "pageToken", reloadRecord);
const recordPager = addressPager({ older: $("#record-older"), newest: $("#record-newest"), cursor: "pageToken", reload: reloadRecord });

// ---- Start --------------------------------------------------------------------------------

async function start() {
  if (!api.key) {
    api.askForKey("");
    return;
  }
  try {
    await new Promise((resolve, reject) => {
      api.follow("live", {
        // Each view loads on its own: one refused (a filter kept in the address, say) shows its
        // error and leaves the others.
        opened: () => Promise.allSettled([loadAccounts(), loadAssignments(), loadKeys(), loadRecord()]).then((loads) => {
          const failed = loads.find((load) => load.status === "rejected");
          if (failed) showError(failed.reason); else showError(null);
          resolve();
        }, reject),
        handle: (name, figures) => { if (name === "figures") showFigures(figures); },
      });
    });
    document.body.dataset.ready = "true";
  } catch (error) {
    showError(error);
  }
}

api.whenKeyGiven(start);
followViews("live", (view) => { if (view === "record" && api.key) reloadRecord(); });
start();
