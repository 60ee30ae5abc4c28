// Ants renderer: the wrapped map with water, food, hills (razed ones crossed out), ants by
// owner, battle deaths (a cross) and collisions (a ring) drawn apart, fog of war for a
// chosen player, zoom (wheel) and pan (drag), and the score graph over turns.
"use strict";

(function () {
  const SIZE = 720;

  function create(doc, ui) {
    const replay = doc.replay;
    const d = doc.derived;
    const rows = d.rows, cols = d.cols;
    const last = replay.steps.length;
    const frames = [replay.initial_frame, ...replay.steps.map((step) => step.frame)];
    const colors = replay.bots.map((_, seat) => Botarena.COLORS[seat % Botarena.COLORS.length]);
    const MOVE = { n: [-1, 0], e: [0, 1], s: [1, 0], w: [0, -1] };
    const wrap = (value, size) => ((value % size) + size) % size;

    // Every ant's square at each turn of its life: start[i] indexes into `squares`.
    const ants = d.ants;
    const start = new Int32Array(ants.length + 1);
    ants.forEach(([, , spawn, end], i) => {
      start[i + 1] = start[i] + Math.min(end, last) - spawn + 1;
    });
    const squares = new Int32Array(start[ants.length]);
    ants.forEach(([row, col, spawn, end, , moves], i) => {
      let r = row, c = col;
      for (let k = 0; k <= Math.min(end, last) - spawn; k++) {
        squares[start[i] + k] = r * cols + c;
        const step = MOVE[moves[k]];
        if (step) {
          r = wrap(r + step[0], rows);
          c = wrap(c + step[1], cols);
        }
      }
    });
    const at = (i, t) => squares[start[i] + t - ants[i][2]];

    // What stands at turn t: live ants, and the ants that died during turn t, split into
    // collisions (2+ ants ended their move on one square) and battle deaths.
    function turnState(t) {
      const live = [], died = [];
      ants.forEach((ant, i) => {
        const [, , spawn, end] = ant;
        if (spawn <= t && t < end) live.push(i);
        else if (end === t && spawn < t) died.push(i);
      });
      const onSquare = new Map();
      for (const i of died) onSquare.set(at(i, t), (onSquare.get(at(i, t)) || 0) + 1);
      const collided = died.filter((i) => onSquare.get(at(i, t)) > 1);
      const battle = died.filter((i) => onSquare.get(at(i, t)) === 1);
      return { live, collided, battle };
    }

    // Squares player `seat` sees at turn t (its live ants' view radius, wrapped).
    const offsets = [];
    const reach = Math.floor(Math.sqrt(d.viewradius2));
    for (let dr = -reach; dr <= reach; dr++) {
      for (let dc = -reach; dc <= reach; dc++) {
        if (dr * dr + dc * dc <= d.viewradius2) offsets.push([dr, dc]);
      }
    }
    function visible(seat, live, t) {
      const seen = new Uint8Array(rows * cols);
      for (const i of live) {
        if (ants[i][4] !== seat) continue;
        const square = at(i, t), r = Math.floor(square / cols), c = square % cols;
        for (const [dr, dc] of offsets) seen[wrap(r + dr, rows) * cols + wrap(c + dc, cols)] = 1;
      }
      return seen;
    }

    // Water drawn once, one pixel per square, scaled at draw time.
    const water = document.createElement("canvas");
    water.width = cols;
    water.height = rows;
    const waterCtx = water.getContext("2d");
    const image = waterCtx.createImageData(cols, rows);
    d.water.forEach((line, r) => {
      for (let c = 0; c < cols; c++) {
        const p = (r * cols + c) * 4;
        const wet = line[c] === "%";
        image.data.set(wet ? [55, 62, 74, 255] : [222, 206, 170, 255], p);
      }
    });
    waterCtx.putImageData(image, 0, 0);

    // Zoom and pan: the view shows squares from (originX, originY) at `scale` px each.
    const fit = SIZE / Math.max(rows, cols);
    let scale = fit, originX = 0, originY = 0, fog = -1;
    Botarena.select(ui.options, "fog of war for", [["-1", "nobody"],
      ...replay.bots.map((bot, seat) => [String(seat), bot.name])], (value) => {
      fog = +value;
      ui.redraw();
    });
    const reset = document.createElement("button");
    reset.textContent = "fit";
    reset.addEventListener("click", () => { scale = fit; originX = originY = 0; ui.redraw(); });
    ui.options.appendChild(reset);
    const canvas = ui.canvas;
    canvas.onwheel = (event) => {
      event.preventDefault();
      const factor = event.deltaY < 0 ? 1.25 : 0.8;
      const mx = event.offsetX / scale + originX, my = event.offsetY / scale + originY;
      scale = Math.max(fit, Math.min(48, scale * factor));
      originX = mx - event.offsetX / scale;
      originY = my - event.offsetY / scale;
      ui.redraw();
    };
    let drag = null;
    canvas.onmousedown = (event) => { drag = [event.offsetX, event.offsetY, originX, originY]; };
    canvas.onmousemove = (event) => {
      if (!drag) return;
      originX = drag[2] - (event.offsetX - drag[0]) / scale;
      originY = drag[3] - (event.offsetY - drag[1]) / scale;
      ui.redraw();
    };
    canvas.onmouseup = canvas.onmouseleave = () => { drag = null; };

    // The score graph under the map.
    const graph = document.createElement("canvas");
    graph.width = SIZE;
    graph.height = 140;
    graph.id = "score-graph";
    ui.extra.replaceChildren(graph, legend());
    const top = Math.max(1, ...frames.map((frame) => Math.max(...frame.score)));

    function legend() {
      const text = document.createElement("div");
      text.id = "legend";
      text.textContent = "graph: each bot's score over all turns (its colour), the black line " +
        "at this turn · × battle death · ○ collision (ants that moved onto one square) · " +
        "crossed hill: razed · wheel: zoom, drag: pan";
      return text;
    }

    // The score lines are drawn once; each frame copies them and adds the turn marker.
    const x = (turn) => 4 + (turn / Math.max(1, last)) * (SIZE - 8);
    const lines = document.createElement("canvas");
    lines.width = SIZE;
    lines.height = 140;
    const y = (score) => 134 - (score / top) * 126;
    const l = lines.getContext("2d");
    l.fillStyle = "#fff";
    l.fillRect(0, 0, SIZE, 140);
    replay.bots.forEach((_, seat) => {
      l.strokeStyle = colors[seat];
      l.lineWidth = 2;
      l.beginPath();
      frames.forEach((frame, turn) => {
        if (turn === 0) l.moveTo(x(turn), y(frame.score[seat]));
        else l.lineTo(x(turn), y(frame.score[seat]));
      });
      l.stroke();
    });

    function drawGraph(t) {
      const g = graph.getContext("2d");
      g.drawImage(lines, 0, 0);
      g.strokeStyle = "#000";
      g.lineWidth = 1;
      g.beginPath();
      g.moveTo(x(t), 0);
      g.lineTo(x(t), 140);
      g.stroke();
    }

    function draw(t) {
      if (canvas.width !== Math.ceil(cols * fit)) canvas.width = Math.ceil(cols * fit);
      if (canvas.height !== Math.ceil(rows * fit)) canvas.height = Math.ceil(rows * fit);
      const ctx = canvas.getContext("2d");
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = "#111";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.imageSmoothingEnabled = false;
      ctx.setTransform(scale, 0, 0, scale, -originX * scale, -originY * scale);
      ctx.drawImage(water, 0, 0);
      const state = turnState(t);
      ctx.fillStyle = "#9e9e9e";
      for (const [r, c, begin, end] of d.food) {
        if (begin <= t && t < end) ctx.fillRect(c + 0.2, r + 0.2, 0.6, 0.6);
      }
      for (const [r, c, owner, end] of d.hills) {
        ctx.strokeStyle = colors[owner];
        ctx.lineWidth = 0.25;
        ctx.strokeRect(c - 0.4, r - 0.4, 1.8, 1.8);
        if (end <= t && end <= last) {
          ctx.strokeStyle = "#000";
          ctx.beginPath();
          ctx.moveTo(c - 0.4, r - 0.4);
          ctx.lineTo(c + 1.4, r + 1.4);
          ctx.moveTo(c + 1.4, r - 0.4);
          ctx.lineTo(c - 0.4, r + 1.4);
          ctx.stroke();
        }
      }
      for (const i of state.live) {
        const square = at(i, t);
        ctx.fillStyle = colors[ants[i][4]];
        ctx.fillRect(square % cols + 0.1, Math.floor(square / cols) + 0.1, 0.8, 0.8);
      }
      ctx.lineWidth = 0.2;
      for (const i of state.battle) {
        const square = at(i, t), c = square % cols, r = Math.floor(square / cols);
        ctx.strokeStyle = colors[ants[i][4]];
        ctx.beginPath();
        ctx.moveTo(c, r);
        ctx.lineTo(c + 1, r + 1);
        ctx.moveTo(c + 1, r);
        ctx.lineTo(c, r + 1);
        ctx.stroke();
      }
      for (const i of state.collided) {
        const square = at(i, t);
        ctx.strokeStyle = colors[ants[i][4]];
        ctx.beginPath();
        ctx.arc(square % cols + 0.5, Math.floor(square / cols) + 0.5, 0.45, 0, 2 * Math.PI);
        ctx.stroke();
      }
      if (fog >= 0) {
        const seen = visible(fog, state.live, t);
        ctx.fillStyle = "rgba(0, 0, 0, 0.55)";
        for (let r = 0; r < rows; r++) {
          for (let c = 0; c < cols; c++) if (!seen[r * cols + c]) ctx.fillRect(c, r, 1, 1);
        }
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      drawGraph(t);
    }

    const where = (i, t) => [Math.floor(at(i, t) / cols), at(i, t) % cols, ants[i][4]];
    return {
      stepsPerSecond: 10,
      color: (seat) => colors[seat],
      scoreName: "score",
      stepName: "turns",
      label: (t) => `turn ${t} · live ants on the map (all players): ${frames[t].ants}`,
      scores: (t) => frames[t].score,
      notes(t) {
        const errors = frames[t].order_errors || {};
        return Object.entries(errors).flatMap(([seat, lines]) =>
          lines.map((line) => `${replay.bots[seat].name}: ${line}`));
      },
      draw,
      state(t) {
        const state = turnState(t);
        const sorted = (list) => list.map((i) => where(i, t)).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
        return {
          ants: sorted(state.live), battle: sorted(state.battle), collided: sorted(state.collided),
          food: d.food.filter(([, , begin, end]) => begin <= t && t < end).map(([r, c]) => [r, c])
            .sort((a, b) => a[0] - b[0] || a[1] - b[1]),
          razed: d.hills.filter(([, , , end]) => end <= t && end <= last).map(([r, c, o]) => [r, c, o]),
          visible: fog >= 0 ? visible(fog, state.live, t).reduce((a, b) => a + b, 0) : null,
          fog, scale, score: frames[t].score,
        };
      },
      setFog(seat) { fog = seat; ui.redraw(); },
    };
  }

  Botarena.renderers.ants = { create };
})();
