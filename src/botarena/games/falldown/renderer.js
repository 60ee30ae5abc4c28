// Falldown renderer: the 18×18 floor in 6×6 blocks with each block's state (standing,
// falling with its countdown, fallen and counting back), the players with facing and wait
// counter, who fell this slot, and the attack line of an `A`.
"use strict";

(function () {
  const CELLS = 18, BLOCK = 3, BLOCKS = 6;
  const STEP = { U: [0, -1], R: [1, 0], D: [0, 1], L: [-1, 0] };
  const FACING = { U: 0, R: 1, D: 2, L: 3 };

  // A block's state from its value as a bot reads it: >0 falling, 0 standing, <0 fallen.
  const blockState = (value) => (value > 0 ? "falling" : value < 0 ? "fallen" : "standing");

  function create(doc, ui) {
    const replay = doc.replay;
    const frames = [replay.initial_frame, ...replay.steps.map((step) => step.frame)];
    const colors = [0, 1, 2, 3].map((seat) => Botarena.COLORS[seat]);
    const cell = 38, pad = 18;

    // The attacked line of slot t: the cells from the actor's next block to the edge.
    function attackLine(t) {
      const frame = frames[t];
      if (t === 0 || frame.command !== "A") return null;
      const actor = frame.players[frame.seat];
      const [dx, dy] = STEP[actor.facing];
      let x = actor.x, y = actor.y;
      while (x + dx >= 0 && x + dx < CELLS && y + dy >= 0 && y + dy < CELLS) {
        x += dx;
        y += dy;
      }
      return { seat: frame.seat, from: [actor.x, actor.y], to: [x, y] };
    }

    function draw(t) {
      const frame = frames[t];
      const canvas = ui.canvas;
      canvas.width = canvas.height = 720;
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#263238";
      ctx.fillRect(0, 0, 720, 720);
      const fallen = new Set(frame.fallen_blocks || []);
      for (let row = 0; row < BLOCKS; row++) {
        for (let col = 0; col < BLOCKS; col++) {
          const value = frame.blocks[row][col];
          const state = blockState(value);
          const x = pad + col * BLOCK * cell, y = pad + row * BLOCK * cell, size = BLOCK * cell;
          ctx.fillStyle = state === "standing" ? "#d7ccc8" : state === "falling" ? "#ffb74d" : "#37474f";
          if (fallen.has(row * BLOCKS + col)) ctx.fillStyle = "#b71c1c";
          ctx.fillRect(x + 2, y + 2, size - 4, size - 4);
          ctx.strokeStyle = "#a1887f";
          ctx.lineWidth = 1;
          for (let i = 1; i < BLOCK; i++) {
            ctx.beginPath();
            ctx.moveTo(x + i * cell, y + 2);
            ctx.lineTo(x + i * cell, y + size - 2);
            ctx.moveTo(x + 2, y + i * cell);
            ctx.lineTo(x + size - 2, y + i * cell);
            ctx.stroke();
          }
          if (value !== 0) {
            ctx.fillStyle = state === "falling" ? "#000" : "#eceff1";
            ctx.font = "bold 28px sans-serif";
            ctx.textAlign = "center";
            ctx.textBaseline = "middle";
            ctx.fillText(String(value), x + size / 2, y + size / 2);
          }
        }
      }
      const line = attackLine(t);
      if (line) {
        ctx.strokeStyle = colors[line.seat];
        ctx.lineWidth = 6;
        ctx.setLineDash([12, 6]);
        ctx.beginPath();
        ctx.moveTo(pad + (line.from[0] + 0.5) * cell, pad + (line.from[1] + 0.5) * cell);
        ctx.lineTo(pad + (line.to[0] + 0.5) * cell, pad + (line.to[1] + 0.5) * cell);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      frame.players.forEach((player, seat) => {
        const cx = pad + (player.x + 0.5) * cell, cy = pad + (player.y + 0.5) * cell;
        if (!player.alive) {
          ctx.strokeStyle = colors[seat];
          ctx.lineWidth = 4;
          ctx.beginPath();
          ctx.moveTo(cx - 12, cy - 12);
          ctx.lineTo(cx + 12, cy + 12);
          ctx.moveTo(cx + 12, cy - 12);
          ctx.lineTo(cx - 12, cy + 12);
          ctx.stroke();
          return;
        }
        Botarena.arrow(ctx, cx, cy, cell, FACING[player.facing], colors[seat]);
        if (player.wait > 0) {
          ctx.fillStyle = "#fff";
          ctx.font = "bold 14px sans-serif";
          ctx.textAlign = "center";
          ctx.fillText(String(player.wait), cx + cell * 0.35, cy - cell * 0.3);
        }
      });
    }

    const names = replay.bots.map((bot) => bot.name);
    const legend = document.createElement("div");
    legend.id = "legend";
    legend.textContent = "number on a block: slots until it falls (orange, falling) or until " +
      "it stands again (dark, fallen; negative) · red: falls this slot · small white number " +
      "by a player: its wait counter after an attack · ×: a fallen player · dashed: the attack line";
    ui.extra.replaceChildren(legend);
    return {
      stepsPerSecond: 8,
      scoreName: "score",
      scoreHeader: "on board (at the end: score)",
      stepName: "slots",
      color: (seat) => colors[seat],
      label(t) {
        const frame = frames[t];
        return t === 0 ? "start: no slot played yet"
          : `slot ${frame.slot} (one bot's command a slot, in seat order) · ` +
            `${names[frame.seat]} played ${frame.command}`;
      },
      scores: (t) => (t === frames.length - 1 && replay.result
        ? replay.result.players.map((player) => player.score)
        : frames[t].players.map((player) => (player.alive ? "on board" : "fell"))),
      notes(t) {
        const frame = frames[t];
        return (frame.falls || []).map((seat) => `${names[seat]} fell`);
      },
      draw,
      state(t) {
        const frame = frames[t];
        return {
          blocks: frame.blocks.map((row) => row.map((value) => [blockState(value), value])),
          players: frame.players, attack: attackLine(t), fallen_blocks: frame.fallen_blocks,
        };
      },
    };
  }

  Botarena.renderers.falldown = { create };
})();
