// Labyrinth renderer: the maze on the board, both adventurers with facing, the cells and
// walls each one sees this step, the walls the maze master removed and added this step with
// their mana cost, the mana left, the round and n.
"use strict";

(function () {
  const DIRS = { north: 0, east: 1, south: 2, west: 3 };
  const SEES = ["rgba(255, 193, 7, 0.35)", "rgba(0, 188, 212, 0.35)"];
  const WHO = ["#ff8f00", "#00838f"];

  function create(doc, ui) {
    const replay = doc.replay;
    const frames = [replay.initial_frame, ...replay.steps.map((step) => step.frame)];
    // mazeAt[t]: the position of the last frame at or before t that carries the maze.
    const mazeAt = new Int32Array(frames.length).fill(-1);
    frames.forEach((frame, t) => {
      mazeAt[t] = frame.maze ? t : t > 0 ? mazeAt[t - 1] : -1;
    });
    const colors = ["#6a1b9a", "#37474f"];
    const legend = document.createElement("div");
    legend.id = "legend";
    legend.textContent = "orange: adventurer A, teal: adventurer B (arrows; tinted: the cells " +
      "each sees, thick: the walls each sees) · green cell: the goal · dashed green −cost: a " +
      "wall the maze master removed, dashed red +cost: a wall it added";
    ui.extra.replaceChildren(legend);

    function draw(t) {
      const frame = frames[t];
      const canvas = ui.canvas;
      canvas.width = canvas.height = 720;
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, 720, 720);
      if (mazeAt[t] < 0 || !frame.adventurers) {
        ctx.fillStyle = "#555";
        ctx.font = "20px sans-serif";
        ctx.fillText("no maze on the board yet", 40, 60);
        return;
      }
      const maze = frames[mazeAt[t]].maze;
      const n = maze.length, pad = 20, cell = (720 - 2 * pad) / n;
      const box = (r, c) => [pad + c * cell, pad + r * cell];
      frame.adventurers.forEach((adventurer, index) => {
        ctx.fillStyle = SEES[index];
        for (const [r, c] of adventurer.cells) ctx.fillRect(...box(r, c), cell, cell);
      });
      ctx.fillStyle = "rgba(76, 175, 80, 0.5)";
      ctx.fillRect(...box(n - 1, n - 1), cell, cell);
      const wallLine = (r, c, side) => {
        const [x, y] = box(r, c);
        if (side === "east") return [x + cell, y, x + cell, y + cell];
        return [x, y + cell, x + cell, y + cell];
      };
      const stroke = (lines, color, width, dash = []) => {
        ctx.strokeStyle = color;
        ctx.lineWidth = width;
        ctx.setLineDash(dash);
        ctx.beginPath();
        for (const [x1, y1, x2, y2] of lines) {
          ctx.moveTo(x1, y1);
          ctx.lineTo(x2, y2);
        }
        ctx.stroke();
        ctx.setLineDash([]);
      };
      const walls = [];
      maze.forEach((line, r) => {
        for (let c = 0; c < n; c++) {
          const digit = +line[c];
          if (digit & 1) walls.push(wallLine(r, c, "east"));
          if (digit & 2) walls.push(wallLine(r, c, "south"));
        }
      });
      stroke(walls, "#212121", Math.max(2, cell / 12));
      stroke([[pad, pad, 720 - pad, pad], [720 - pad, pad, 720 - pad, 720 - pad],
        [720 - pad, 720 - pad, pad, 720 - pad], [pad, 720 - pad, pad, pad]], "#212121", 4);
      frame.adventurers.forEach((adventurer, index) => {
        stroke(adventurer.walls.map(([r, c, side]) => wallLine(r, c, side)), WHO[index],
          Math.max(3, cell / 8));
      });
      for (const change of frame.changes || []) {
        if (change.result !== "changed" && change.result !== "visible") continue;
        const line = wallLine(...change.wall);
        const color = change.op === "remove" ? "#2e7d32" : "#c62828";
        stroke([line], color, Math.max(4, cell / 6), [8, 5]);
        ctx.fillStyle = color;
        ctx.font = `bold ${Math.max(12, Math.floor(cell / 3))}px sans-serif`;
        ctx.fillText(`${change.op === "remove" ? "−" : "+"}${change.cost}`,
          (line[0] + line[2]) / 2 + 4, (line[1] + line[3]) / 2 - 4);
      }
      frame.adventurers.forEach((adventurer, index) => {
        const [x, y] = box(adventurer.row, adventurer.col);
        const offset = frame.adventurers.length > 1 ? (index ? 0.2 : -0.2) * cell : 0;
        Botarena.arrow(ctx, x + cell / 2 + offset, y + cell / 2, cell * 0.6,
          DIRS[adventurer.dir], WHO[index]);
      });
    }

    return {
      stepsPerSecond: 20,
      scoreName: "game score",
      scoreHeader: "game score (one for both roles)",
      stepName: "turns (adventurers' moves, all rounds)",
      color: (seat) => colors[seat],
      label(t) {
        const frame = frames[t];
        return `round ${frame.round} · n ${frame.n} (maze ${frame.n}×${frame.n}) · turn of the ` +
          `round ${frame.turn} · maze master's mana ${frame.mana}` +
          (frame.call ? ` · call answered: ${frame.call}` : "");
      },
      scores: (t) => replay.bots.map(() => frames[t].score),
      notes(t) {
        const frame = frames[t];
        const notes = [];
        if (frame.moves) notes.push(`moves: adventurer A ${frame.moves[0]}, B ${frame.moves[1]}`);
        if (frame.goal) notes.push("goal reached");
        for (const change of frame.changes || []) {
          notes.push(`${change.op} wall ${change.wall.join(" ")}: cost ${change.cost}, ${change.result}`);
        }
        if (frame.ignored) notes.push(`ignored: ${frame.ignored}`);
        if (frame.strike) notes.push(`strike: ${JSON.stringify(frame.strike)}`);
        return notes;
      },
      draw,
      state(t) {
        const frame = frames[t];
        return {
          maze: mazeAt[t] >= 0 ? frames[mazeAt[t]].maze : null,
          adventurers: frame.adventurers || [], changes: frame.changes || [],
          mana: frame.mana, round: frame.round, n: frame.n,
        };
      },
    };
  }

  Botarena.renderers.labyrinth = { create };
})();
