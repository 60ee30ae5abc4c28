// The replay viewer's shell: loads the document, checks its versions, and drives the
// timeline (play/pause, step, seek, speed, keyboard, per-player panel, game-over banner,
// each bot's input and output) over the game's renderer (each game package's renderer.js
// registers itself in Botarena.renderers; a game without one is shown by generic.js).
"use strict";

const Botarena = (window.Botarena = {
  VIEW_VERSION: 1,
  SCHEMA_VERSIONS: [1],
  SPEEDS: [0.25, 0.5, 1, 2, 4, 8, 16],
  COLORS: ["#e53935", "#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00acc1", "#6d4c41",
           "#d81b60", "#7cb342", "#546e7a"],
  renderers: {},
});

// -- loading ----------------------------------------------------------------------------
async function gunzipJson(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function base64Bytes(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// Why a document cannot be shown, or null: the viewer never guesses at a format it does
// not know.
Botarena.refusal = function (doc) {
  if (!doc || typeof doc !== "object") return "This is not a botarena viewer document.";
  if (doc.view_version !== Botarena.VIEW_VERSION) {
    return `This page was made for viewer format ${doc.view_version}; this viewer reads ` +
      `format ${Botarena.VIEW_VERSION}. Make the page again with this botarena ` +
      "(botarena view REPLAY --html OUT.html).";
  }
  const replay = doc.replay || {};
  if (!Botarena.SCHEMA_VERSIONS.includes(replay.schema_version)) {
    return `This replay has schema version ${replay.schema_version} (written by botarena ` +
      `${replay.botarena_version}); this viewer reads schema ` +
      `${Botarena.SCHEMA_VERSIONS.join(", ")}. Open it with a botarena that reads it.`;
  }
  if (!Botarena.rendererOf(replay.game)) {
    return `This viewer has no renderer for the game ${JSON.stringify(replay.game)}.`;
  }
  return null;
};

// The game's own renderer, else the generic one.
Botarena.rendererOf = (game) => Botarena.renderers[game] || Botarena.renderers.generic;

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = false;
  document.getElementById("viewer").hidden = true;
  document.getElementById("controls").hidden = true;
  window.botarenaView = { error: message };
}

Botarena.start = async function (source) {
  try {
    if (source.b64 !== undefined) {
      Botarena.show(await gunzipJson(base64Bytes(source.b64)));
    } else if (source.url !== undefined) {
      const response = await fetch(source.url);
      if (!response.ok) throw new Error(`${source.url}: HTTP ${response.status}`);
      Botarena.show(await gunzipJson(await response.arrayBuffer()));
    } else if (source.sse !== undefined) {
      Botarena.live(source.sse);
    }
  } catch (error) {
    showError(`Cannot read the replay: ${error.message}`);
  }
};

// Live games: the server sends the whole document as it grows ("doc" events); the view
// follows the last step unless the user moved away from it.
Botarena.live = function (url) {
  const events = new EventSource(url);
  events.addEventListener("doc", (event) => {
    gunzipJson(base64Bytes(event.data)).then((doc) => Botarena.show(doc, true));
  });
  events.addEventListener("end", () => events.close());
};

// -- the player ---------------------------------------------------------------------------
let viewer = null;

Botarena.show = function (doc, live = false) {
  const refusal = Botarena.refusal(doc);
  if (refusal) {
    showError(refusal);
    return;
  }
  if (viewer) {
    viewer.update(doc, live);
  } else {
    viewer = new Viewer(doc, live);
  }
};

// Cumulative per-seat sums over steps (time used) and the faults of each step.
function timeline(replay) {
  const seats = replay.bots.length;
  const ms = [new Float64Array(seats)];
  const status = [Array(seats).fill("ok")];
  for (const [seat, fault] of Object.entries(replay.handshake_faults || {})) {
    status[0][seat] = fault[0];
  }
  for (const step of replay.steps) {
    const sums = Float64Array.from(ms[ms.length - 1]);
    const now = status[status.length - 1].slice();
    for (const act of step.acts) {
      sums[act.seat] += act.ms || 0;
      if (act.fault) now[act.seat] = act.fault[0];
    }
    ms.push(sums);
    status.push(now);
  }
  return { ms, status };
}

class Viewer {
  constructor(doc, live) {
    this.el = (id) => document.getElementById(id);
    this.position = 0;
    this.playing = false;
    this.speed = 1;
    this.draws = 0;
    this.el("viewer").hidden = false;
    this.el("controls").hidden = false;
    this.canvas = this.el("board");
    for (const speed of Botarena.SPEEDS) {
      const option = document.createElement("option");
      option.value = speed;
      option.textContent = `${speed}×`;
      if (speed === 1) option.selected = true;
      this.el("speed").appendChild(option);
    }
    this.bindControls();
    this.update(doc, live);
    this.readyMs = performance.now();
    window.botarenaView = this.api();
  }

  update(doc, live) {
    const follow = !this.replay || this.position >= this.last;
    this.doc = doc;
    this.replay = doc.replay;
    this.last = this.replay.steps.length;
    this.times = timeline(this.replay);
    const renderer = Botarena.rendererOf(this.replay.game);
    const options = this.el("options");
    const controls = () => [...options.querySelectorAll("select, input")];
    const kept = controls().map((c) => (c.type === "checkbox" ? c.checked : c.value));
    options.replaceChildren();
    this.renderer = renderer.create(doc, {
      canvas: this.canvas, options, extra: this.el("extra"), redraw: () => this.draw(),
    });
    controls().forEach((control, index) => {  // a live game keeps the viewer's choices
      if (index >= kept.length) return;
      if (control.type === "checkbox") control.checked = kept[index];
      else control.value = kept[index];
      control.dispatchEvent(new Event("change"));
    });
    const bots = this.replay.bots.map((bot) => bot.name);
    this.el("title").textContent = `${this.replay.game} · seed ${this.replay.seed}`;
    this.el("subtitle").textContent = (live ? "live: " : "") + bots.join(" vs ");
    this.el("stderr").textContent = (this.replay.stderr || [])
      .map((text, seat) => `— ${bots[seat]} —\n${text || "(empty)"}`).join("\n");
    this.el("seek").max = this.last;
    this.el("score-name").textContent = this.renderer.scoreHeader || this.renderer.scoreName || "score";
    this.buildPlayers(bots);
    this.drawn = -1;
    this.seek(live && follow ? this.last : Math.min(this.position, this.last));
  }

  buildPlayers(bots) {
    const body = this.el("players").tBodies[0];
    body.replaceChildren();
    this.rows = bots.map((name, seat) => {
      const row = body.insertRow();
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = this.renderer.color(seat);
      row.insertCell().appendChild(swatch);
      for (let i = 0; i < 4; i++) row.insertCell();
      row.cells[1].textContent = name;
      return row;
    });
  }

  bindControls() {
    const on = (id, handler) => this.el(id).addEventListener("click", handler);
    on("first", () => this.seek(0));
    on("back", () => this.seek(this.position - 1));
    on("forward", () => this.seek(this.position + 1));
    on("last", () => this.seek(this.last));
    on("play", () => this.toggle());
    this.el("seek").addEventListener("input", (event) => this.seek(+event.target.value));
    this.el("speed").addEventListener("change", (event) => (this.speed = +event.target.value));
    document.addEventListener("keydown", (event) => {
      if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const keys = {
        " ": () => this.toggle(), ArrowLeft: () => this.seek(this.position - 1),
        ArrowRight: () => this.seek(this.position + 1), Home: () => this.seek(0),
        End: () => this.seek(this.last), PageUp: () => this.seek(this.position - 10),
        PageDown: () => this.seek(this.position + 10), "-": () => this.shiftSpeed(-1),
        "+": () => this.shiftSpeed(1), "=": () => this.shiftSpeed(1),
      };
      if (keys[event.key]) {
        event.preventDefault();
        keys[event.key]();
      }
    });
  }

  // One speed slower (-1) or faster (+1) in the speed menu's list.
  shiftSpeed(by) {
    const index = Botarena.SPEEDS.indexOf(this.speed) + by;
    if (index < 0 || index >= Botarena.SPEEDS.length) return;
    this.speed = Botarena.SPEEDS[index];
    this.el("speed").value = String(this.speed);
  }

  toggle() {
    this.playing = !this.playing;
    if (this.playing && this.position >= this.last) this.seek(0);
    this.el("play").textContent = this.playing ? "pause" : "play";
    if (this.playing) {
      this.clock = performance.now();
      this.carry = 0;
      requestAnimationFrame((now) => this.tick(now));
    }
  }

  // One animation frame while playing: advance by the steps due at this speed.
  tick(now) {
    if (!this.playing) return;
    this.carry += ((now - this.clock) / 1000) * this.renderer.stepsPerSecond * this.speed;
    this.clock = now;
    const steps = Math.floor(this.carry);
    this.carry -= steps;
    if (steps > 0) this.seek(this.position + steps);
    else this.draw();
    if (this.position >= this.last) {
      this.playing = false;
      this.el("play").textContent = "play";
      return;
    }
    requestAnimationFrame((next) => this.tick(next));
  }

  seek(position) {
    this.position = Math.max(0, Math.min(this.last, position | 0));
    this.el("seek").value = this.position;
    this.draw();
  }

  draw() {
    const t = this.position;
    this.renderer.draw(t);
    this.draws++;
    if (t === this.drawn) return;  // the panel is already this step's
    this.drawn = t;
    setText(this.el("counter"), `step ${t} / ${this.last}`);
    setText(this.el("label"), this.renderer.label(t));
    const scores = this.renderer.scores(t);
    const final = t === this.last && this.replay.result ? this.replay.result.players : null;
    this.rows.forEach((row, seat) => {
      // The last step shows the result's score: a fault's consequence (a score of 0, say) is
      // the rules' final word, whatever the points were while it played.
      const score = final ? final[seat].score : scores[seat];
      setText(row.cells[2], score === undefined ? "" : String(score));
      setText(row.cells[3], final ? final[seat].status : this.times.status[t][seat]);
      setText(row.cells[4], this.times.ms[t][seat].toFixed(0));
    });
    this.el("events").replaceChildren(...this.events(t));
    this.el("io").replaceChildren(...this.io(t));
    this.showBanner(t);
  }

  // At the last step of a finished game: each bot's place and score, and why it ended.
  showBanner(t) {
    const banner = this.el("banner");
    const result = this.replay.result;
    banner.hidden = !(result && t === this.last);
    if (banner.hidden) return;
    const reasons = { ...this.doc.derived.end_reasons, ...this.renderer.endReasons };
    const reason = reasons[result.end_reason] || result.end_reason;
    const title = document.createElement("b");
    title.textContent = `Game over after ${result.turns} ${this.renderer.stepName || "steps"}: ${reason}`;
    const places = result.players.map((player, seat) => ({ ...player, seat }))
      .sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    const tied = (rank) => result.players.filter((player) => player.rank === rank).length > 1;
    const lines = places.map((player) => {
      const line = document.createElement("div");
      const status = player.status === "ok" ? "" : ` (${player.status})`;
      line.textContent = `${ordinal(player.rank)}${tied(player.rank) ? " (tied)" : ""}: ` +
        `${player.bot}: ${this.renderer.scoreName || "score"} ${player.score}${status}`;
      return line;
    });
    banner.replaceChildren(title, ...lines);
  }

  // What each bot that acted at step t was sent and answered (the view document's `io`,
  // cut for long texts), with the time of its answer and its fault.
  io(t) {
    const bots = this.replay.bots;
    const nodes = [];
    const add = (tag, className, text) => {
      const node = document.createElement(tag);
      if (className) node.className = className;
      node.textContent = text;
      nodes.push(node);
    };
    if (t === 0) {
      const waits = this.replay.handshake_ms || {};
      add("div", "", "the start: no step played yet");
      for (const [seat, ms] of Object.entries(waits)) {
        add("div", "", `${bots[seat].name}: start-up handshake answered in ${ms} ms`);
      }
      return nodes;
    }
    const texts = (this.doc.derived.io || [])[t - 1] || [];
    this.replay.steps[t - 1].acts.forEach((act, index) => {
      const [sent, answered] = texts[index] || ["(not in this page)", "(not in this page)"];
      const fault = act.fault ? ` · ${act.fault[0]} (${act.fault[1]})` : "";
      add("div", act.fault ? "who fault" : "who",
        `${bots[act.seat].name} (seat ${act.seat}): answered in ${act.ms.toFixed(1)} ms${fault}`);
      add("div", "tag", "sent:");
      add("pre", "sent", sent === "" ? "(nothing)" : sent.replace(/\n$/, ""));
      add("div", "tag", "answered:");
      add("pre", "answered", answered === "" ? "(empty line)" : answered);
    });
    return nodes;
  }

  // The step's faults and the renderer's own notes (order errors, moves), as text nodes.
  events(t) {
    const lines = [];
    const bots = this.replay.bots;
    if (t > 0) {
      for (const act of this.replay.steps[t - 1].acts) {
        if (act.fault) {
          const line = document.createElement("div");
          line.className = "fault";
          line.textContent = `${bots[act.seat].name}: ${act.fault[0]} (${act.fault[1]})`;
          lines.push(line);
        }
      }
    } else {
      for (const [seat, fault] of Object.entries(this.replay.handshake_faults || {})) {
        const line = document.createElement("div");
        line.className = "fault";
        line.textContent = `${bots[seat].name}: ${fault[0]} at start (${fault[1]})`;
        lines.push(line);
      }
    }
    for (const note of this.renderer.notes(t)) {
      const line = document.createElement("div");
      line.textContent = note;
      lines.push(line);
    }
    if (!lines.length) lines.push(document.createTextNode("—"));
    return lines;
  }

  // What tests and benches read: the position, and what the renderer drew there.
  api() {
    const self = this;
    return {
      get position() { return self.position; },
      get last() { return self.last; },
      get playing() { return self.playing; },
      get draws() { return self.draws; },
      get readyMs() { return self.readyMs; },
      get game() { return self.replay.game; },
      get speed() { return self.speed; },
      state: () => self.renderer.state(self.position),
      seek: (t) => self.seek(t),
      setSpeed: (speed) => { self.speed = speed; self.el("speed").value = speed; },
    };
  }
}

// Text written only when it changed: the panel is updated at every animation frame, and
// an unchanged cell then costs no layout.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function ordinal(rank) {
  const tens = rank % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][rank % 10] || "th";
  return `${rank}${suffix}`;
}

// Helpers shared by the renderers.
Botarena.frame = function (replay, t) {
  return t === 0 ? replay.initial_frame : replay.steps[t - 1].frame;
};

Botarena.checkbox = function (parent, text, checked, onChange) {
  const label = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.checked = checked;
  box.addEventListener("change", () => onChange(box.checked));
  label.append(box, " " + text);
  parent.appendChild(label);
  return box;
};

Botarena.select = function (parent, text, choices, onChange) {
  const label = document.createElement("label");
  const select = document.createElement("select");
  for (const [value, name] of choices) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = name;
    select.appendChild(option);
  }
  select.addEventListener("change", () => onChange(select.value));
  label.append(text + " ", select);
  parent.appendChild(label);
  return select;
};

// A facing triangle for a unit at (x, y) of size s, direction 0 N, 1 E, 2 S, 3 W.
Botarena.arrow = function (ctx, x, y, s, direction, color) {
  const angle = (direction * Math.PI) / 2;
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.beginPath();
  ctx.moveTo(0, -s * 0.45);
  ctx.lineTo(s * 0.35, s * 0.35);
  ctx.lineTo(-s * 0.35, s * 0.35);
  ctx.closePath();
  ctx.fillStyle = color;
  ctx.fill();
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
};
