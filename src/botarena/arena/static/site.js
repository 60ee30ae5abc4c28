// The contest site's pages, built from the JSON API (docs/site.md). Every text from a user or a
// bot (names, file names, build logs, stderr) is set with textContent, never parsed as HTML;
// every request that changes something sends the session's CSRF token in X-CSRF-Token.
"use strict";

const POLL_MS = 2000;
const content = document.getElementById("content");
let session = null; // {user, csrf, organiser} while logged in
let contest = null; // {name, game, languages, insecure, deadline, max_source_bytes}
let stages = []; // the contest's test competitions and finals

function box(tag, children, attributes = {}) {
  const node = el(tag, null, attributes);
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

// A cell's text: numbers with two decimals unless whole, texts (a bot's owner, its version) as
// they are.
const number = (value) => (value === null || value === undefined ? ""
  : typeof value === "string" ? value
    : Number.isInteger(value) ? value : Number(value).toFixed(2));
const botPath = (bot) => `/bots/${encodeURIComponent(bot)}`;
const gamePath = (id) => `/games/${encodeURIComponent(id)}`;

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

// A call of the JSON API: the answer's JSON, or an ApiError carrying the server's one reason.
async function api(path, { method = "GET", json, form } = {}) {
  const headers = {};
  let body;
  if (json !== undefined) { headers["Content-Type"] = "application/json"; body = JSON.stringify(json); }
  if (form !== undefined) body = form;
  if (method !== "GET" && session) headers["X-CSRF-Token"] = session.csrf;
  const response = await fetch(path, { method, headers, body, credentials: "same-origin" });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const reason = (data && (data.error || data.detail)) || text || response.statusText;
    throw new ApiError(response.status, String(reason));
  }
  return data;
}

// A labelled preformatted text (a build log, a bot's stderr): shown as text, whatever it holds.
function textBlock(title, text, id) {
  return box("section", [el("h3", title), el("pre", text || "(empty)", id ? { id } : {})]);
}

function message(text, kind = "error") {
  return el("p", text, { class: kind, role: kind === "error" ? "alert" : "status" });
}

// A form whose fields are [label, input attributes]; `submit` gets the form and shows errors.
function formOf(id, fields, button, submit) {
  const form = el("form", null, { id });
  for (const [label, { tag = "input", options = [], ...attributes }] of fields) {
    const input = el(tag, null, attributes);
    for (const [value, text] of options) input.appendChild(el("option", text, { value }));
    form.appendChild(box("label", [el("span", label), input]));
  }
  const status = el("div", null, { class: "form-status" });
  form.append(el("button", button, { type: "submit" }), status);
  form.onsubmit = async (event) => {
    event.preventDefault();
    status.replaceChildren();
    try { await submit(form, status); } catch (error) { status.replaceChildren(message(error.message)); }
  };
  return form;
}

// -- the header -------------------------------------------------------------------------
function drawNav() {
  const items = [link("ladder", "/"), link("rules", "/rules")];
  for (const stage of stages) items.push(link(stage.stage === "finals" ? "finals" : stage.tournament, `/stages/${encodeURIComponent(stage.tournament)}`));
  if (session) {
    items.push(link("upload", "/upload"), link("my bots", "/me"));
    if (session.organiser) items.push(link("admin", "/admin"));
    const out = el("button", `log out ${session.user}`, { id: "logout", type: "button" });
    out.onclick = async () => { await api("/api/session", { method: "DELETE" }); session = null; go("/"); };
    items.push(out);
  } else {
    items.push(link("sign up", "/signup"), link("log in", "/login"));
  }
  document.getElementById("nav").replaceChildren(...items);
  if (contest) {
    document.getElementById("contest").textContent = `${contest.name} · ${contest.game}`;
    document.title = `${contest.name} · botarena`;
    document.getElementById("insecure").hidden = !contest.insecure;
  }
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

// -- pages ------------------------------------------------------------------------------
async function ladderPage() {
  const standingsBox = el("div");
  const seats = contest.min_seats || 2;
  content.replaceChildren(el("h2", "Ladder"), deadlineNote() || "", standingsBox);
  let drawn = "";
  async function draw() {
    const rows = await api("/api/standings");
    const list = Array.isArray(rows) ? rows : rows.standings || [];
    const key = JSON.stringify(list);
    if (key === drawn) return;
    drawn = key;
    if (!list.length) {
      standingsBox.replaceChildren(message("No bot on the ladder yet.", "info"));
      return;
    }
    const few = list.length < seats
      ? message(`A ${contest.game} game needs ${seats} bots: the ladder waits for ${seats - list.length} more.`, "info")
      : null;
    standingsBox.replaceChildren(...[few, ...rankings(list, "standings")].filter(Boolean));
  }
  await draw();
  return setInterval(() => draw().catch(() => {}), POLL_MS);
}

// Column titles a reader understands, for the keys of the standings' rows.
const COLUMN_TITLES = {
  owner: "owner", language: "language", label: "version", ordinal: "rating (μ − 3σ)", mu: "μ", sigma: "σ", games: "games",
  last_hour: "games in the last hour", rating: "rating", mean_score: "mean score", wins: "won",
  draws: "drew", losses: "lost", faults: "faults", points: "points", irregular: "irregular losses",
  timeouts: "time-outs", disqualified: "disqualified", role: "role",
};

// A role game ranks each role apart: a heading and a table for each role (ids
// `standings-maze-master`...), in the game's seat order; one table in other games.
function rankings(list, id) {
  if (!list.some((row) => row.role)) return [standingsTable(list, id)];
  const order = [...(contest.roles || []), ...list.map((row) => row.role)];
  const roles = order.filter((role, index) => role && order.indexOf(role) === index);
  return roles.filter((role) => list.some((row) => row.role === role)).flatMap((role) => {
    const rows = list.filter((row) => row.role === role).map(({ role: _, ...row }) => row);
    const slug = role.replace(/ /g, "-");
    return [el("h3", role[0].toUpperCase() + role.slice(1), { class: "role-heading" }),
      standingsTable(rows, `${id}-${slug}`)];
  });
}

function standingsTable(list, id) {
  const columns = Object.keys(list[0]).filter((name) => !["bot", "rank"].includes(name));
  const grid = table(["#", "bot", ...columns.map((name) => COLUMN_TITLES[name] || name)], list.map((row) => [
    row.rank, link(row.bot, botPath(row.bot)), ...columns.map((name) => number(row[name]))]), id);
  list.forEach((row, index) => {
    if (session && row.owner === session.user) grid.tBodies[0].rows[index].classList.add("mine");
  });
  // Each column's cells carry its key as a class: a phone's narrow screen hides the ones a
  // ranking can do without (site.css).
  for (const line of grid.rows) {
    columns.forEach((name, index) => line.cells[index + 2].classList.add(`column-${name}`));
  }
  return grid;
}

// The contest's test competitions and finals, each with its standings (live while it plays).
async function stagePage(name) {
  const box_ = el("div");
  content.replaceChildren(el("h2", name), box_);
  async function draw() {
    const stage = await api(`/api/stages/${encodeURIComponent(name)}`);
    box_.replaceChildren(
      el("p", `${stage.stage}: ${stage.played} of ${stage.games} games played`, { id: "stage-progress" }),
      ...(stage.standings.length ? rankings(stage.standings, "stage-standings")
        : [message("No game played yet.", "info")]));
  }
  await draw();
  return setInterval(() => draw().catch(() => {}), POLL_MS);
}

// A seat's time rule in words: CPU limits first, the wall caps after them.
function timeText(limits) {
  const parts = [];
  const seconds = (value) => `${+value.toFixed(3)} s`;
  if (limits.cpu_reply_s !== undefined) parts.push(`${seconds(limits.cpu_reply_s)} of CPU a reply`);
  if (limits.cpu_budget_s !== undefined) parts.push(`${seconds(limits.cpu_budget_s)} of CPU in all the game`);
  const cpu = parts.length > 0;
  const wall = (what) => (cpu ? `wall time capped at ${what}` : `${what} of wall time`);
  if (limits.wall_reply_s !== undefined) parts.push(wall(`${seconds(limits.wall_reply_s)} a reply`));
  if (limits.wall_budget_s !== undefined) parts.push(wall(`${seconds(limits.wall_budget_s)} in all the game`));
  return parts.length ? parts.join("; ") : "no limit";
}

// The contest's statement: rules, options and time limits, limits, languages, starters.
async function rulesPage() {
  const rules = await api("/api/rules");
  const parts = [el("h2", `${rules.title}: the rules`),
    el("p", `${rules.seats[0] === rules.seats[1] ? rules.seats[0] : rules.seats.join(" to ")} bots a game.`)];
  const deadline = deadlineNote();
  if (deadline) parts.push(deadline);
  parts.push(el("h3", "This contest's options and time limits"),
    table(["option", "value here", "default", "meaning"], rules.options.map((option) => [option.name,
      JSON.stringify(option.value), JSON.stringify(option.default), option.description]), "rules-options"),
    el("h3", "How long a bot may think"),
    table(["seats", "first reply", "each later reply"], rules.time.map((rule) => [
      rule.seats.join(", "), timeText(rule.first), timeText(rule.turn)]), "rules-time"),
    el("h3", "Limits"),
    table(["limit", "value"], Object.entries(rules.limits).filter(([, value]) => value !== null)
      .map(([key, value]) => [key.replaceAll("_", " "), value]), "rules-limits"),
    el("h3", "Languages"),
    table(["language", "files", "built with", "run as", "toolchain here"], rules.languages.map((l) => [
      l.language, l.endings.join(" "), l.build, l.run, l.toolchain || "not installed here"]), "rules-languages"),
    box("ul", rules.archives.map((line) => el("li", line)), { id: "rules-archives" }),
    box("p", [el("span", "Starters: "), ...rules.starters.flatMap((language) => [
      link(language, `/api/starters/${encodeURIComponent(language)}?download=1`), el("span", " ")])]));
  for (const text of rules.rules) {
    parts.push(el("h3", text.title), el("pre", text.text, { class: `rules-${text.format}` }));
  }
  if (!rules.rules.length) parts.push(message("This game ships no rule text.", "info"));
  content.replaceChildren(...parts);
}

function signupPage() {
  content.replaceChildren(el("h2", "Sign up"), formOf("signup", [
    ["user name", { name: "user", required: "", autocomplete: "username", maxlength: "32" }],
    ["password", { name: "password", type: "password", required: "", autocomplete: "new-password" }],
  ], "sign up", async (form) => {
    const credentials = { user: form.user.value, password: form.password.value };
    await api("/api/register", { method: "POST", json: credentials });
    session = await api("/api/session", { method: "POST", json: credentials });
    go("/upload");
  }));
}

function loginPage() {
  content.replaceChildren(el("h2", "Log in"), formOf("login", [
    ["user name", { name: "user", required: "", autocomplete: "username" }],
    ["password", { name: "password", type: "password", required: "", autocomplete: "current-password" }],
  ], "log in", async (form) => {
    session = await api("/api/session", {
      method: "POST", json: { user: form.user.value, password: form.password.value } });
    go("/me");
  }));
}

// The deadline and the time left until it, counting down (nothing without a deadline).
function deadlineNote() {
  if (!contest.deadline) return null;
  const note = el("p", "", { id: "deadline", class: "info" });
  const at = new Date(contest.deadline);
  const tick = () => {
    const left = Math.max(0, Math.floor((at - Date.now()) / 1000));
    const days = Math.floor(left / 86400), hours = Math.floor((left % 86400) / 3600);
    const minutes = Math.floor((left % 3600) / 60);
    note.textContent = left > 0
      ? `Deadline ${contest.deadline} (UTC): ${days} d ${hours} h ${minutes} min left.`
      : `The deadline ${contest.deadline} (UTC) has passed: no new bots or updates.`;
    if (left > 0 && note.isConnected !== false) setTimeout(tick, 30_000);
  };
  tick();
  return note;
}

async function uploadPage() {
  if (!session) {
    loginPage();
    content.append(box("p", [el("span", "No account yet? "), link("Sign up", "/signup"),
      el("span", " to upload a bot.")], { id: "signup-hint" }));
    return;
  }
  const starterBox = el("div");
  const languages = contest.starters || [];
  const choose = el("select", null, { id: "starter-language" });
  for (const language of languages) choose.appendChild(el("option", language, { value: language }));
  async function showStarter() {
    if (!choose.value) return;
    // a role game's starter is the role's chosen in the upload form (else the first role's)
    const role = document.getElementById("upload-role");
    const path = `/api/starters/${encodeURIComponent(choose.value)}?` +
      (role && role.value ? `role=${encodeURIComponent(role.value)}&` : "");
    const response = await fetch(path);
    const code = await response.text();
    const download = el("a", "download", { href: `${path}download=1`, id: "starter-download" });
    starterBox.replaceChildren(download, el("pre", code, { id: "starter-code" }));
  }
  choose.onchange = () => showStarter();
  const limit = contest.max_source_bytes ? ` (at most ${contest.max_source_bytes} bytes of source)` : "";
  content.replaceChildren(
    el("h2", "Upload a bot"),
    deadlineNote(),
    el("p", "One source file, or a .zip or .tar.gz of the sources of one language" + limit +
      ". It is built, then plays a test game against the sample bot; if it passes, it joins the ladder."),
    box("p", [el("span", `Languages: ${(contest.languages || []).join(", ")} (`),
      link("how each is built", "/rules"), el("span", ").")], { id: "upload-languages" }),
    formOf("upload", [
      ["bot name (empty: your user name)", { name: "name", maxlength: "32" }],
      ...roleField(),
      ["source", { name: "file", type: "file", required: "" }],
    ], "upload", async (form) => {
      const data = new FormData();
      data.append("file", form.file.files[0]);
      if (form.name.value) data.append("name", form.name.value);
      const role = form.elements.namedItem("role");
      if (role && role.value) data.append("role", role.value);
      const answer = await api("/api/bots", { method: "POST", form: data });
      go(botPath(answer.bot));
    }),
    el("h2", "Starter code"),
    box("label", [el("span", "language "), choose]),
    starterBox);
  const role = document.getElementById("upload-role");
  if (role) role.onchange = () => showStarter();
  await showStarter();
}

// A role game's upload names the role its bot plays (a new bot's; later versions keep it).
function roleField() {
  const roles = contest.roles || [];
  if (!roles.length) return [];
  const options = [["", "(a new bot: choose; an update keeps its role)"], ...roles.map((r) => [r, r])];
  const select = { tag: "select", name: "role", id: "upload-role" };
  return [["role it plays", { ...select, options }]];
}

function gamesTable(games) {
  return table(["game", "bots", "scores", "result", ""], games.map((game) => [
    link(String(game.id), gamePath(game.id)), (game.bots || []).join(" · "),
    (game.scores || []).map(number).join(" "), game.result || game.status || "",
    link("watch", `${gamePath(game.id)}/view/`)]), "games");
}

// A bot's games from its side, a page at a time, optionally against one opponent.
function botGamesSection(name) {
  const list = el("div", null, { id: "bot-games" });
  const opponent = el("input", null, { id: "opponent", placeholder: "opponent (empty: any)" });
  let before = null;
  async function load(more) {
    const query = new URLSearchParams({ limit: "20" });
    if (more && before) query.set("before", before);
    if (opponent.value.trim()) query.set("opponent", opponent.value.trim());
    const page = await api(`/api/bots/${encodeURIComponent(name)}/games?${query}`);
    const rows = page.games.map((game) => [link(String(game.id), gamePath(game.id)), game.kind,
      game.version, game.result || "", game.place, number(game.score),
      box("span", game.opponents.map((other) => link(other, botPath(other)))), game.finished || "",
      link("watch", `${gamePath(game.id)}/view/`)]);
    const grid = table(["game", "kind", "version", "result", "place", "score", "opponents",
      "finished", ""], rows, "bot-games-table");
    const parts = more ? [...list.children].filter((node) => node.tagName !== "BUTTON") : [];
    if (!more && !rows.length) parts.push(message("No game yet.", "info"));
    if (rows.length) parts.push(grid);
    before = page.next;
    if (before) {
      const next = el("button", "older games", { type: "button", id: "older-games" });
      next.onclick = () => load(true).catch((error) => list.append(message(error.message)));
      parts.push(next);
    }
    list.replaceChildren(...parts);
  }
  opponent.onchange = () => load(false).catch((error) => list.replaceChildren(message(error.message)));
  return { section: box("section", [el("h3", "Games"), opponent, list]), load };
}

// The bot's ladder rating (μ − 3σ) after each rated game, one line per version, as SVG.
function ratingChart(history) {
  const NS = "http://www.w3.org/2000/svg";
  const points = history.versions.flatMap((v) => v.ratings.map((r) => ({ ...r, version: v.version })));
  if (!points.length) return null;
  const width = 600, height = 160, pad = 24;
  const low = Math.min(...points.map((p) => p.ordinal)), high = Math.max(...points.map((p) => p.ordinal));
  const x = (i) => pad + (i / Math.max(1, points.length - 1)) * (width - 2 * pad);
  const y = (v) => height - pad - ((v - low) / Math.max(1e-9, high - low)) * (height - 2 * pad);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("id", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "rating after each game");
  let index = 0;
  history.versions.forEach((version, n) => {
    if (!version.ratings.length) return;
    const line = document.createElementNS(NS, "polyline");
    const coords = version.ratings.map((r) => `${x(index++)},${y(r.ordinal)}`);
    line.setAttribute("points", coords.join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", (typeof Botarena !== "undefined" && Botarena.COLORS) ? Botarena.COLORS[n % Botarena.COLORS.length] : "#1565c0");
    line.setAttribute("stroke-width", "2");
    const title = document.createElementNS(NS, "title");
    title.textContent = version.version;
    line.appendChild(title);
    svg.appendChild(line);
    const mark = document.createElementNS(NS, "text");
    const [startX, startY] = coords[0].split(",");
    mark.setAttribute("x", startX);
    mark.setAttribute("y", String(Math.max(12, Number(startY) - 6)));
    mark.setAttribute("font-size", "11");
    mark.textContent = version.version;
    svg.appendChild(mark);
  });
  return box("section", [el("h3", "Rating after each game (μ − 3σ)"), svg]);
}

// The playing version against the one it replaced (docs/site.md, "Is my new version
// better?"): the verdict, W-D-L, Elo with its interval, the LLR against its bounds, the LLR
// after each block as a line between the bounds, and the games with their replays.
const VERDICTS = {
  running: "playing in the workers' spare time",
  accepted: "better: accepted (H1)",
  rejected: "not better: rejected (H0)",
  stopped: "no verdict: stopped without deciding",
};

function comparePanel(c) {
  const bound = (value, infinite) => (value === null ? infinite : number(value));
  const elo = c.elo === null ? "" : `${number(c.elo)} [${bound(c.elo_low, "−∞")}, ${bound(c.elo_high, "+∞")}]`;
  const games = c.games.map((game) => [link(String(game.id), gamePath(game.id)), game.seed,
    game.result || "not played yet", link("watch", `${gamePath(game.id)}/view/`)]);
  return box("section", [
    el("h3", `Compare with v${c.against}`),
    message(`v${c.version} against v${c.against}: ${VERDICTS[c.state]}`, "info"),
    table(["W-D-L", "Elo [95 %]", "LLR", "bounds", "H0 / H1", "games at most"],
      [[`${c.wins}-${c.draws}-${c.losses}`, elo, number(c.llr), `${number(c.lower)} … ${number(c.upper)}`,
        `Elo ≤ ${c.elo0} / Elo ≥ ${c.elo1}`, c.max_games]], "compare"),
    llrChart(c),
    games.length ? table(["game", "seed", `result of v${c.version}`, ""], games, "compare-games") : null,
  ], { id: "compare-panel" });
}

// The LLR after each block, from 0 at the start, between its two bounds (dashed), as SVG.
function llrChart(c) {
  const NS = "http://www.w3.org/2000/svg";
  const width = 600, height = 120, pad = 12;
  const values = [0, ...c.line];
  const low = Math.min(c.lower, ...values), high = Math.max(c.upper, ...values);
  const x = (i) => pad + (i / Math.max(1, values.length - 1)) * (width - 2 * pad);
  const y = (v) => height - pad - ((v - low) / Math.max(1e-9, high - low)) * (height - 2 * pad);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("id", "compare-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "LLR after each block, between its bounds");
  for (const level of [c.lower, c.upper]) {
    const rule = document.createElementNS(NS, "line");
    for (const [key, value] of [["x1", pad], ["x2", width - pad], ["y1", y(level)], ["y2", y(level)]]) {
      rule.setAttribute(key, String(value));
    }
    rule.setAttribute("stroke", "#888");
    rule.setAttribute("stroke-dasharray", "4 4");
    svg.appendChild(rule);
  }
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i)},${y(v)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "#1565c0");
  line.setAttribute("stroke-width", "2");
  svg.appendChild(line);
  return svg;
}

async function mePage() {
  if (!session) return loginPage();
  const me = await api("/api/me");
  const bots = me.bots || [];
  content.replaceChildren(
    el("h2", `My bots (${me.user})`),
    bots.length ? table(["bot", "version", "status", "rating", "rank", "games"], bots.map((bot) => [
      link(bot.bot, botPath(bot.bot)), bot.version, bot.status, number(bot.rating), bot.rank, bot.games,
    ]), "my-bots") : box("p", [el("span", "No bot yet: "), link("upload one", "/upload"), el("span", ".")]),
    el("h2", "Recent games"), gamesTable(me.games || []));
}

async function botPage(name) {
  const games = botGamesSection(name);
  let chart = null;
  async function draw() {
    const bot = await api(`/api/bots/${encodeURIComponent(name)}`);
    const compare = bot.active_version > 1
      ? await api(`/api/bots/${encodeURIComponent(name)}/versions/${bot.active_version}/compare`) : null;
    const parts = [
      el("h2", bot.role ? `${bot.bot} (${bot.role})` : bot.bot),
      table(["owner", "playing version", "rating", "rank", "games", "latest upload", "its status"],
        [[bot.owner, bot.active_version === null ? "none" : `v${bot.active_version}`,
          number(bot.rating), bot.rank, bot.games, `v${bot.version}`, bot.status]], "bot"),
    ];
    if (bot.active_version !== null && bot.active_version !== bot.version) {
      parts.push(message(`v${bot.active_version} keeps playing on the ladder; v${bot.version} is ${bot.status}.`, "info"));
    }
    if (bot.disabled) parts.push(message("The organiser disabled this bot: it does not play.", "info"));
    if (bot.reason) parts.push(message(bot.reason));
    if (bot.build_log !== undefined) parts.push(textBlock("Build log", bot.build_log, "build-log"));
    if (bot.test_game) {
      const test = bot.test_game;
      parts.push(box("section", [el("h3", "Test game against the sample bot"),
        box("p", [link(`game ${test.id}`, gamePath(test.id)), el("span", ` · ${test.result || ""}`)])]));
      if (test.stderr !== undefined) parts.push(textBlock("Your bot's stderr", test.stderr, "test-stderr"));
    }
    if (bot.versions) {
      parts.push(el("h3", "Versions"), table(
        ["version", "status", "file", "language", "uploaded", "reason", "test game"],
        bot.versions.map((v) => [v.version, v.status, v.file, v.language, v.uploaded, v.reason || "",
          v.test_game ? link(`game ${v.test_game}`, gamePath(v.test_game)) : ""]), "versions"));
    }
    if (session && bot.owner === session.user && bot.active_version !== null) {
      const seats = contest.min_seats || 2;
      const label = seats > 2
        ? `play one game now against (bots' names, commas between; the sample bot takes the ${seats} seats' rest)`
        : "play one game now against (a bot's name)";
      parts.push(formOf("challenge", [[label, { name: "opponent", required: "" }]],
        "play against", async (form) => {
          const opponents = form.opponent.value.split(",").map((s) => s.trim()).filter(Boolean);
          const asked = await api(`/api/bots/${encodeURIComponent(name)}/challenge`,
            { method: "POST", json: { opponents } });
          go(gamePath(asked.game));
        }));
    }
    if (compare && compare.state !== "none") parts.push(comparePanel(compare));
    if (chart) parts.push(chart);
    parts.push(games.section);
    content.replaceChildren(...parts);
    return bot.status === "building" || bot.status === "testing" || (compare && compare.state === "running");
  }
  chart = ratingChart(await api(`/api/bots/${encodeURIComponent(name)}/ratings`));
  await games.load(false);
  if (await draw()) {
    return setInterval(() => draw().catch(() => {}), POLL_MS);
  }
}

async function gamePage(id) {
  const game = await api(`/api/games/${encodeURIComponent(id)}`);
  if (game.status === "pending" || game.status === "claimed") {
    content.replaceChildren(el("h2", `Game ${game.id}`),
      message(`Waiting for a worker to play it (${game.status}).`, "info"));
    return setInterval(async () => {
      const now = await api(`/api/games/${encodeURIComponent(id)}`).catch(() => game);
      if (now.status !== game.status) route();
    }, POLL_MS);
  }
  const seats = game.seats || (game.bots || []).map((bot, seat) => ({ bot, seat }));
  const parts = [el("h2", `Game ${game.id}`),
    table(["seat", "bot", "score", "status"], seats.map((seat, index) => [index,
      link(seat.bot, botPath(seat.bot)), number((game.scores || [])[index]),
      (game.statuses || [])[index] || ""]), "game"),
    link("watch in the viewer", `${gamePath(id)}/view/`)];
  if (game.reason) parts.push(el("p", `Ended: ${game.reason_text || game.reason}`, { id: "game-end" }));
  if (game.voided) parts.push(message("This game was voided by the organiser.", "info"));
  seats.forEach((seat, index) => {
    const stderr = seat.stderr !== undefined ? seat.stderr : (game.stderr || {})[index];
    if (stderr !== undefined && stderr !== null) parts.push(textBlock(`stderr of ${seat.bot}`, stderr, `stderr-${index}`));
  });
  content.replaceChildren(...parts);
}

async function adminPage() {
  if (!session || !session.organiser) return loginPage();
  const post = (path, json) => api(path, { method: "POST", json });
  const lists = el("div", null, { id: "admin-lists" });
  const gameFilter = { bot: "", status: "" };
  async function drawLists() {
    const query = new URLSearchParams({ limit: "50" });
    if (gameFilter.bot) query.set("bot", gameFilter.bot);
    if (gameFilter.status) query.set("status", gameFilter.status);
    const [bots, users, games, queue, workers] = await Promise.all([
      api("/api/admin/bots"), api("/api/admin/users"), api(`/api/admin/games?${query}`),
      api("/api/admin/uploads"), api("/api/admin/workers")]);
    const toggle = (bot) => {
      const button = el("button", bot.disabled ? "enable" : "disable", { type: "button" });
      button.onclick = async () => {
        await post(`/api/admin/bots/${encodeURIComponent(bot.bot)}/${bot.disabled ? "enable" : "disable"}`);
        await drawLists();
      };
      return button;
    };
    const voidButton = (game) => {
      if (game.status !== "done") return "";
      const button = el("button", "void", { type: "button" });
      button.onclick = async () => { await post(`/api/admin/games/${game.id}/void`); await drawLists(); };
      return button;
    };
    const filter = el("form", null, { id: "admin-game-filter" });
    const byBot = el("input", null, { name: "bot", placeholder: "bot", value: gameFilter.bot });
    const byStatus = el("select", null, { name: "status" });
    for (const status of ["", "pending", "claimed", "done", "void", "error"]) {
      const option = el("option", status || "any status", { value: status });
      if (status === gameFilter.status) option.selected = true;
      byStatus.appendChild(option);
    }
    filter.append(byBot, byStatus, el("button", "filter", { type: "submit" }));
    filter.onsubmit = async (event) => {
      event.preventDefault();
      gameFilter.bot = byBot.value.trim();
      gameFilter.status = byStatus.value;
      await drawLists();
    };
    lists.replaceChildren(
      el("h3", `Bots (${bots.length})`),
      table(["bot", "owner", "versions", "latest", "playing", "rank", "rating", "games", ""],
        bots.map((bot) => [link(bot.bot, botPath(bot.bot)), bot.owner, bot.versions, bot.status || "",
          bot.playing ? `v${bot.playing}` : "", bot.rank, number(bot.rating), bot.games, toggle(bot)]),
        "admin-bots"),
      el("h3", `Users (${users.length})`),
      table(["user", "organiser", "bots", "joined"], users.map((user) => [user.user,
        user.organiser ? "yes" : "", user.bots, user.joined || ""]), "admin-users"),
      el("h3", "Games"), filter,
      table(["game", "bots", "status", "finished", "worker", ""], games.games.map((game) => [
        link(String(game.id), gamePath(game.id)), game.bots.join(" · "), game.status,
        game.finished || "", game.worker || "", voidButton(game)]), "admin-games"),
      el("h3", `Upload queue (${queue.length})`),
      table(["bot", "version", "status", "language", "worker", "waiting (s)"], queue.map((item) => [
        item.bot, `v${item.version}`, item.status, item.language || "", item.worker || "",
        item.waiting_s]), "admin-uploads"),
      el("h3", `Workers (${workers.filter((w) => w.live).length} live)`),
      table(["worker", "host", "pid", "last heartbeat (s ago)", "live"], workers.map((w) => [
        w.worker.slice(0, 8), w.host, w.pid, w.heartbeat_s, w.live ? "yes" : "gone"]), "admin-workers"));
  }
  const deadlineText = contest.deadline ? `now ${contest.deadline} (UTC)` : "none set";
  const clear = el("button", "clear the deadline", { type: "button", id: "admin-clear-deadline" });
  const deadlineStatus = el("div", null, { class: "form-status" });
  clear.onclick = async () => {
    try {
      await post("/api/admin/deadline", { at: null });
      contest = await api("/api/contest");
      deadlineStatus.replaceChildren(message("deadline cleared", "info"));
    } catch (error) { deadlineStatus.replaceChildren(message(error.message)); }
  };
  content.replaceChildren(
    el("h2", "Organiser"),
    el("p", `Deadline: ${deadlineText}`, { id: "admin-deadline-now" }),
    formOf("admin-deadline", [["deadline (ISO time, UTC unless it says)", { name: "at", required: "" }]],
      "set the deadline", async (form, status) => {
        await post("/api/admin/deadline", { at: form.at.value });
        contest = await api("/api/contest");
        status.replaceChildren(message(`deadline ${form.at.value}`, "info"));
      }),
    box("div", [clear, deadlineStatus]),
    formOf("admin-bot", [["bot", { name: "bot", required: "" }],
      ["action", { tag: "select", name: "action" }]], "apply", async (form, status) => {
      await post(`/api/admin/bots/${encodeURIComponent(form.bot.value)}/${form.action.value}`);
      status.replaceChildren(message(`${form.bot.value}: ${form.action.value}d`, "info"));
      await drawLists();
    }),
    formOf("admin-void", [["game id", { name: "game", required: "", inputmode: "numeric" }]],
      "void the game", async (form, status) => {
        await post(`/api/admin/games/${encodeURIComponent(form.game.value)}/void`);
        status.replaceChildren(message(`game ${form.game.value} voided`, "info"));
        await drawLists();
      }),
    formOf("admin-finals", [["top K (empty: every active bot)", { name: "top", inputmode: "numeric" }],
      ["the sample bot plays too", { name: "sample", type: "checkbox" }]],
      "start the finals", async (form, status) => {
        const body = form.top.value ? { top: Number(form.top.value) } : {};
        if (form.sample.checked) body.sample = true;
        const answer = await post("/api/admin/finals", body);
        status.replaceChildren(message(`finals: ${answer.tournament || "started"}`, "info"));
      }),
    link("export every version of every bot and the results (tar.gz)", "/api/admin/export"),
    lists);
  const select = document.querySelector("#admin-bot select");
  for (const action of ["disable", "enable"]) select.appendChild(el("option", action, { value: action }));
  await drawLists();
}

// -- routing ----------------------------------------------------------------------------
let timer = null;

async function route() {
  if (timer) clearInterval(timer);
  timer = null;
  drawNav();
  const path = decodeURIComponent(location.pathname);
  try {
    let match;
    if (path === "/") timer = await ladderPage();
    else if (path === "/rules") await rulesPage();
    else if (path === "/signup") signupPage();
    else if (path === "/login") loginPage();
    else if (path === "/upload") await uploadPage();
    else if (path === "/me") await mePage();
    else if (path === "/admin") await adminPage();
    else if ((match = path.match(/^\/bots\/(.+)$/))) timer = await botPage(match[1]);
    else if ((match = path.match(/^\/games\/(\d+)$/))) timer = await gamePage(match[1]);
    else if ((match = path.match(/^\/stages\/(.+)$/))) timer = await stagePage(match[1]);
    else content.replaceChildren(message("No such page."));
  } catch (error) {
    if (error.status === 401) { session = null; drawNav(); loginPage(); return; }
    content.replaceChildren(message(error.message));
  }
}

// Links inside the site change the page without a reload.
document.addEventListener("click", (event) => {
  const anchor = event.target.closest && event.target.closest("a");
  if (!anchor || anchor.target || event.ctrlKey || event.metaKey) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.includes("/view/")) return;
  event.preventDefault();
  go(url.pathname);
});
window.addEventListener("popstate", route);

(async () => {
  contest = await api("/api/contest");
  session = contest.session; // null logged out: no 401 asked for, none in the console
  stages = await api("/api/stages").catch(() => []);
  await route();
})();
