// The leaderboard pages, built from the JSON API. Every text is set with textContent (a bot
// named <script>…</script> shows as those characters); a tournament page polls its version
// and redraws when a game finished, so a running tournament updates without a reload.
"use strict";

const POLL_MS = 2000;
const content = document.getElementById("content");

async function api(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const tournamentPath = (name) => `/t/${encodeURIComponent(name)}`;
const apiPath = (name) => `/api/tournaments/${encodeURIComponent(name)}`;
const botPath = (name, bot) => `${tournamentPath(name)}/bot/${encodeURIComponent(bot)}`;
const number = (value) => (Number.isInteger(value) ? value : Number(value).toFixed(2));

function gamesTable(name, games) {
  return table(["game", "bots", "scores", "status", "ended by", "faults", ""], games.map((game) => [
    game.key, game.bots.join(" · "), game.scores ? game.scores.map(number).join(" ") : "",
    game.status + (game.statuses && game.statuses.some((s) => s !== "ok")
      ? ` (${game.statuses.join(", ")})` : "") + (game.error ? `: ${game.error}` : ""),
    game.end_reason || "", game.faults ? game.faults.join(" ") : "",
    game.replay ? link("watch", `${tournamentPath(name)}/game/${game.id}/`) : "",
  ]), "games");
}

// -- pages ------------------------------------------------------------------------------
async function listPage() {
  const tournaments = await api("/api/tournaments");
  content.replaceChildren(el("h2", "Tournaments"), table(
    ["tournament", "game", "schedule", "bots", "finished", "scheduled", ""],
    tournaments.map((t) => [link(t.name, tournamentPath(t.name)), t.game, t.schedule, t.bots,
      t.finished, t.scheduled, t.running ? "running" : ""]), "tournaments"));
}

async function tournamentPage(name) {
  document.getElementById("where").textContent = name;
  const filters = { bot: "", result: "", fault: false };
  const standingsBox = el("div"), crossBox = el("div"), gamesBox = el("div");
  const plot = el("img", null, { class: "plot", alt: "rating over games" });
  const bar = el("div", null, { class: "filters" });
  content.replaceChildren(el("h2", "Standings"), standingsBox, plot, el("h2", "Cross table"),
    crossBox, el("h2", "Games"), bar, gamesBox);

  async function drawGames() {
    const query = new URLSearchParams();
    if (filters.bot) query.set("bot", filters.bot);
    if (filters.result && filters.bot) query.set("result", filters.result);
    if (filters.fault) query.set("fault", "1");
    gamesBox.replaceChildren(gamesTable(name, await api(`${apiPath(name)}/games?${query}`)));
  }

  function filterBar(bots) {
    const botSelect = el("select", null, { id: "filter-bot" });
    for (const bot of ["", ...bots]) botSelect.appendChild(el("option", bot || "any bot", { value: bot }));
    botSelect.value = filters.bot;
    const resultSelect = el("select", null, { id: "filter-result" });
    for (const result of ["", "win", "draw", "loss"]) {
      resultSelect.appendChild(el("option", result || "any result", { value: result }));
    }
    resultSelect.value = filters.result;
    const fault = el("input", null, { type: "checkbox", id: "filter-fault" });
    fault.checked = filters.fault;
    botSelect.onchange = () => { filters.bot = botSelect.value; drawGames(); };
    resultSelect.onchange = () => { filters.result = resultSelect.value; drawGames(); };
    fault.onchange = () => { filters.fault = fault.checked; drawGames(); };
    const label = (text, control) => { const node = el("label", text + " "); node.appendChild(control); return node; };
    bar.replaceChildren(label("bot", botSelect), label("result (of that bot)", resultSelect),
      label("with a fault", fault));
  }

  async function draw() {
    const data = await api(`${apiPath(name)}/standings`);
    const roles = data.standings.some((row) => row.role);
    // the column the order comes from is always shown (points, and the irregular losses
    // that break their ties, when the game ranks by points)
    const byPoints = data.rank_by === "points";
    standingsBox.replaceChildren(el("div", `${data.game} · ranked by ${data.rank_by} · ` +
      `${data.games} games counted` + (data.played > data.games
        ? ` (${data.played - data.games} of ${data.played} played not counted: strikes)` : "")), table(
      [...(roles ? ["role"] : []), "#", "bot", ...(byPoints ? ["points", "irregular"] : []),
        "rating", "games", "mean", "W-D-L", "faults"],
      data.standings.map((row) => [...(roles ? [row.role || ""] : []), row.rank,
        link(row.bot + (row.disqualified ? " (disqualified)" : ""), botPath(name, row.bot)),
        ...(byPoints ? [number(row.points), row.irregular] : []), number(row.rating), row.games, number(row.mean_score),
        `${row.wins}-${row.draws}-${row.losses}`, row.faults]), "standings"));
    if (data.games) plot.src = `${apiPath(name)}/plot.png?v=${encodeURIComponent(data.version)}`;
    const cross = await api(`${apiPath(name)}/cross`);
    crossBox.replaceChildren(table(["", ...cross.bots], cross.bots.map((row) => [row,
      ...cross.bots.map((col) => {
        const cell = (cross.cells[row] || {})[col];
        return row === col || !cell ? "" : `${number(cell.points)} (${cell.wins}-${cell.draws}-${cell.losses})`;
      })]), "cross"));
    filterBar(data.standings.map((row) => row.bot));
    await drawGames();
    return data.version;
  }

  let version = await draw();
  setInterval(async () => {
    const now = (await api(`${apiPath(name)}/version`)).version;
    if (now !== version) {
      version = await draw();
      document.getElementById("live").textContent = `updated ${new Date().toLocaleTimeString()}`;
    }
  }, POLL_MS);
}

async function botPage(name, bot) {
  document.getElementById("where").textContent = `${name} · ${bot}`;
  const data = await api(`${apiPath(name)}/bots/${encodeURIComponent(bot)}`);
  const s = data.standing;
  const stderr = data.recent_stderr.flatMap((game) => [el("h3", game.key),
    el("pre", game.stderr === null ? "(replay not found)" : game.stderr || "(empty)")]);
  content.replaceChildren(el("h2", data.bot), table(
    ["rank", "rating", "games", "W-D-L", "faults", "irregular", "time-outs"],
    [[s.rank, number(s.rating), s.games, `${s.wins}-${s.draws}-${s.losses}`, s.faults,
      s.irregular, s.timeouts]], "record"),
  link("back to the tournament", tournamentPath(name)),
  el("h2", "Games"), gamesTable(name, data.games), el("h2", "stderr of recent games"),
  ...stderr);
}

async function route() {
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === "t" && parts.length === 2) await tournamentPage(parts[1]);
    else if (parts[0] === "t" && parts[2] === "bot") await botPage(parts[1], parts[3]);
    else await listPage();
  } catch (error) {
    content.replaceChildren(el("p", error.message, { class: "fault" }));
  }
  window.leaderboardReady = true;
}

route();
