// Amazes renderer: the 25×25 maze as Red, Blue, both or the truth see it (squares each
// player discovered, by owner), both players with their facing, the path walked this turn.
"use strict";

(function () {
  const SIZE = 25;
  const SEAT_COLORS = ["#e53935", "#1e88e5"];

  // Walls from the header's art: north[r][c] (above square r,c) and west[r][c].
  function parseMaze(art) {
    const lines = art.split("\n");
    const wall = (r, c) => lines[r] !== undefined && lines[r][c] !== undefined && lines[r][c] !== " ";
    const north = [], west = [];
    for (let r = 0; r <= SIZE; r++) {
      north.push([]);
      west.push([]);
      for (let c = 0; c <= SIZE; c++) {
        north[r].push(c < SIZE && wall(2 * r, 2 * c + 1));
        west[r].push(r < SIZE && wall(2 * r + 1, 2 * c));
      }
    }
    return { north, west };
  }

  function create(doc, ui) {
    const replay = doc.replay;
    const maze = parseMaze(replay.header.maze);
    const frames = [replay.initial_frame, ...replay.steps.map((step) => step.frame)];
    // discoveredAt[seat][square]: the first position at which the seat knows the square.
    const discoveredAt = [new Int32Array(SIZE * SIZE).fill(-1), new Int32Array(SIZE * SIZE).fill(-1)];
    frames.forEach((frame, t) => {
      (frame.found || []).forEach((squares, seat) => {
        for (const square of squares) {
          if (discoveredAt[seat][square] < 0) discoveredAt[seat][square] = t;
        }
      });
    });
    let view = "both";
    const legend = document.createElement("div");
    legend.id = "legend";
    legend.textContent = "pink: squares Red discovered · blue: squares Blue discovered " +
      "(half and half: both) · grey: not discovered · arrows: the players, facing · " +
      "dashed: the path the mover walked this turn";
    ui.extra.replaceChildren(legend);
    Botarena.select(ui.options, "maze as known by", [["both", "both"], ["0", "Red"], ["1", "Blue"],
      ["truth", "truth"]], (value) => { view = value; ui.redraw(); });
    const known = (seat, square, t) => discoveredAt[seat][square] >= 0 && discoveredAt[seat][square] <= t;

    function squareOwners(t, square) {
      return [0, 1].filter((seat) => known(seat, square, t));
    }

    function draw(t) {
      const canvas = ui.canvas;
      const ctx = canvas.getContext("2d");
      canvas.width = canvas.height = 720;
      const cell = 28, pad = 10;
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, 720, 720);
      const seats = view === "both" || view === "truth" ? [0, 1] : [+view];
      for (let r = 0; r < SIZE; r++) {
        for (let c = 0; c < SIZE; c++) {
          const owners = squareOwners(t, r * SIZE + c).filter((seat) => seats.includes(seat));
          const x = pad + c * cell, y = pad + r * cell;
          if (owners.length === 2) {
            ctx.fillStyle = "#f8bbd0";
            ctx.fillRect(x, y, cell / 2, cell);
            ctx.fillStyle = "#bbdefb";
            ctx.fillRect(x + cell / 2, y, cell / 2, cell);
          } else if (owners.length === 1) {
            ctx.fillStyle = owners[0] === 0 ? "#f8bbd0" : "#bbdefb";
            ctx.fillRect(x, y, cell, cell);
          } else if (view !== "truth") {
            ctx.fillStyle = "#cfd8dc";
            ctx.fillRect(x, y, cell, cell);
          }
        }
      }
      // Walls: all of them for the truth, else those next to a square the view knows.
      const shown = (r, c) => r >= 0 && c >= 0 && r < SIZE && c < SIZE &&
        (view === "truth" || squareOwners(t, r * SIZE + c).some((seat) => seats.includes(seat)));
      ctx.strokeStyle = "#222";
      ctx.lineWidth = 3;
      ctx.beginPath();
      for (let r = 0; r <= SIZE; r++) {
        for (let c = 0; c <= SIZE; c++) {
          if (maze.north[r][c] && (shown(r, c) || shown(r - 1, c))) {
            ctx.moveTo(pad + c * cell, pad + r * cell);
            ctx.lineTo(pad + (c + 1) * cell, pad + r * cell);
          }
          if (maze.west[r][c] && (shown(r, c) || shown(r, c - 1))) {
            ctx.moveTo(pad + c * cell, pad + r * cell);
            ctx.lineTo(pad + c * cell, pad + (r + 1) * cell);
          }
        }
      }
      ctx.stroke();
      const frame = frames[t];
      if (frame.path && frame.path.length) {
        const mover = frame.seat;
        const previous = frames[t - 1].players[mover][0];
        ctx.strokeStyle = SEAT_COLORS[mover];
        ctx.lineWidth = 4;
        ctx.setLineDash([6, 4]);
        ctx.beginPath();
        const centre = (square) => [pad + (square % SIZE + 0.5) * cell,
          pad + (Math.floor(square / SIZE) + 0.5) * cell];
        ctx.moveTo(...centre(previous));
        for (const square of frame.path) ctx.lineTo(...centre(square));
        ctx.stroke();
        ctx.setLineDash([]);
      }
      frame.players.forEach(([square, facing], seat) => {
        Botarena.arrow(ctx, pad + (square % SIZE + 0.5) * cell,
          pad + (Math.floor(square / SIZE) + 0.5) * cell, cell, facing, SEAT_COLORS[seat]);
      });
    }

    const clamp = (points) => Math.max(0, Math.min(1000, points));
    return {
      stepsPerSecond: 4,
      color: (seat) => SEAT_COLORS[seat],
      scoreName: "points",
      stepName: "turns (both players' together)",
      label: (t) => `turns played (both players): ${frames[t].turn}` +
        (t > 0 ? ` · ${["Red", "Blue"][frames[t].seat]} moved` : ""),
      scores: (t) => frames[t].points.map(clamp),
      notes(t) {
        const frame = frames[t];
        if (t === 0) return [];
        const who = replay.bots[frame.seat].name;
        return [`${who}: ${frame.moves || "(nothing)"}${frame.jury ? " (jury)" : ""}`,
          `squares of the maze each player has discovered (of ${SIZE * SIZE}): ` +
          frame.discovered.map((count, seat) => `${["Red", "Blue"][seat]} ${count}`).join(", ")];
      },
      draw,
      state(t) {
        const frame = frames[t];
        const counts = [0, 1].map((seat) => discoveredAt[seat].filter((at) => at >= 0 && at <= t).length);
        return { view, players: frame.players, points: frame.points, path: frame.path || [],
          discovered: counts };
      },
    };
  }

  Botarena.renderers.amazes = { create };
})();
